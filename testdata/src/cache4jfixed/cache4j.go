package cache4jfixed

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

// Get returns the value for k, loading it on a miss. The lookup, the
// count, the load and the store are one critical section: two concurrent
// misses of one key load it once and count one hit and one miss, as
// either order does.
func (c *Cache[K, V]) Get(k K) (V, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.items[k]; ok {
		c.hits++
		return v, nil
	}
	c.misses++
	v, err := c.load(k)
	if err != nil {
		return v, err
	}
	c.put(k, v)
	return v, nil
}

// put stores v under k, evicting the oldest entry when full. The caller
// holds c.mu.
func (c *Cache[K, V]) put(k K, v V) {
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
