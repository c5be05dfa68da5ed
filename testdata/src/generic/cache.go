package generic

import "sync"

// Cache is a map safe for concurrent use — almost.
type Cache[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
}

// New returns an empty cache.
func New[K comparable, V any]() *Cache[K, V] { return &Cache[K, V]{m: map[K]V{}} }

// Put stores v under k.
func (c *Cache[K, V]) Put(k K, v V) {
	c.mu.Lock()
	c.m[k] = v // want "data race on map\\[K\\]V"
	c.mu.Unlock()
}

// Get returns the value under k.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	v, ok := c.m[k]
	return v, ok
}
