package drvgetterfixed

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
	defer c.mu.Unlock()
	c.total += n
}

// Total returns the sum of what was added.
func (c *Counter) Total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.total
}
