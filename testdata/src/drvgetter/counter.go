package drvgetter

import "sync"

// Counter sums what is added to it.
type Counter struct {
	mu    sync.Mutex
	total int
}

// NewCounter returns a counter at zero.
func NewCounter() *Counter { return &Counter{} }

// Add adds n to the total.
func (c *Counter) Add(n int) {
	c.mu.Lock()
	t := c.total // want "atomicity violation on Counter\\.total.*Add and Add called together left Total\\(\\) = [12]; called one after the other, they left Total\\(\\) = 3; found by a generated driver calling Add and Add concurrently"
	c.mu.Unlock()
	// The total is read; store the sum.
	c.mu.Lock()
	c.total = t + n
	c.mu.Unlock()
}

// Total returns the sum of what was added.
func (c *Counter) Total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.total
}
