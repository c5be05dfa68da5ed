package lostincrfixed

import "sync"

// Counter counts under its lock.
type Counter struct {
	mu    sync.Mutex
	value int64
}

// Add adds n and returns the count.
func (c *Counter) Add(n int64) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.value += n
	return c.value
}

// Cache holds a counter per key.
type Cache struct{ counters sync.Map }

// Load returns the key's counter, if there is one.
func (c *Cache) Load(key string) (*Counter, bool) {
	v, ok := c.counters.Load(key)
	if !ok {
		return nil, false
	}
	return v.(*Counter), true
}

// LoadOrStore returns the key's counter, storing n when there is none.
func (c *Cache) LoadOrStore(key string, n *Counter) (*Counter, bool) {
	v, loaded := c.counters.LoadOrStore(key, n)
	return v.(*Counter), loaded
}

// Increment adds one to the key's counter, creating it at 1 if needed.
func (c *Cache) Increment(key string) int64 {
	counter, ok := c.Load(key)
	if ok {
		return counter.Add(1)
	}
	own := &Counter{value: 1}
	counter, loaded := c.LoadOrStore(key, own)
	if loaded {
		return counter.Add(1)
	}
	return 1
}

// Count returns the key's count.
func (c *Cache) Count(key string) int64 {
	counter, ok := c.Load(key)
	if !ok {
		return 0
	}
	return counter.Add(0)
}
