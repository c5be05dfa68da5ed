package drvgenericnotest

import "sync"

// Cache maps keys to values. It is safe for concurrent use.
type Cache[K comparable, V interface{ ~int | ~string }] struct {
	mu sync.Mutex
	m  map[K]V
	n  int
}

// New returns an empty cache.
func New[K comparable, V interface{ ~int | ~string }]() *Cache[K, V] {
	return &Cache[K, V]{m: map[K]V{}}
}

// Add stores v under k unless k is present, and reports whether it did.
func (c *Cache[K, V]) Add(k K, v V) bool {
	c.mu.Lock()
	_, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return false
	}
	c.mu.Lock()
	c.m[k] = v
	c.n++
	c.mu.Unlock()
	return true
}

// Len returns the number of entries.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}
