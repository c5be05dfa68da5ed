package drvteardown

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
	if c.closed {
		c.mu.Unlock()
		return false
	}
	p := c.p
	c.mu.Unlock()
	return p.Push(k)
}

// Reset starts counting afresh while the cache serves.
func (c *Cache) Reset() {
	c.mu.Lock()
	old := c.p
	c.p = newPolicy()
	c.mu.Unlock()
	old.Close()
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
