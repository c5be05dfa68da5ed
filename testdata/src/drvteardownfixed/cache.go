package drvteardownfixed

import "sync"

// Cache hands every key it is asked for to its policy.
type Cache struct {
	mu     sync.Mutex
	p      *policy
	closed bool
}

// NewCache makes a cache with a policy of its own.
func NewCache() *Cache {
	return &Cache{p: newPolicy()}
}

// Get counts an access of k; false when the cache is closed or its
// policy full.
func (c *Cache) Get(k int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return false
	}
	return c.p.Push(k)
}

// Reset starts counting afresh while the cache serves.
func (c *Cache) Reset() {
	c.p.Clear()
}

// Close ends the cache.
func (c *Cache) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.closed = true
	c.p.Close()
}
