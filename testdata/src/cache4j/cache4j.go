package cache4j

import "sync"

// Cache is a read-through cache of at most max entries.
type Cache[K comparable, V any] struct {
	mu    sync.Mutex
	items map[K]V
	order []K // insertion order, for eviction
	max   int
	load  func(K) (V, error)

	hits, misses int
}

// New returns a cache of at most max entries that loads misses with load.
func New[K comparable, V any](max int, load func(K) (V, error)) *Cache[K, V] {
	return &Cache[K, V]{items: make(map[K]V), max: max, load: load}
}

// Get returns the value for k, loading it on a miss.
func (c *Cache[K, V]) Get(k K) (V, error) {
	c.mu.Lock()
	v, ok := c.items[k] // want "atomicity violation on map\\[K\\]V.*left Stats\\(\\) = \\[0 2\\].*found by a generated driver calling Get and Get concurrently"
	c.mu.Unlock()
	if ok {
		c.hits++ // want "data race on " "atomicity violation on Cache\\.hits"
		return v, nil
	}
	c.misses++ // want "data race on Cache\\.misses.*found by a generated driver"
	v, err := c.load(k)
	if err != nil {
		return v, err
	}
	c.put(k, v)
	return v, nil
}

func (c *Cache[K, V]) put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[k]; !ok {
		if len(c.order) == c.max {
			delete(c.items, c.order[0])
			c.order = c.order[1:]
		}
		c.order = append(c.order, k)
	}
	c.items[k] = v
}

// Stats returns the number of hits and misses so far.
func (c *Cache[K, V]) Stats() (hits, misses int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.misses
}
