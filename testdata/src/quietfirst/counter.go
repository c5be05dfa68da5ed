package quietfirst

import "sync"

// Counter is a count behind a mutex.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Get returns the count.
func (c *Counter) Get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n // want "atomicity violation on Counter\\.n"
}

// Set sets the count.
func (c *Counter) Set(v int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n = v
}

// Incr adds one.
func (c *Counter) Incr() {
	c.Set(c.Get() + 1)
}

// Reset sets the count to zero, after a look at it that decides nothing.
func (c *Counter) Reset() {
	c.Get()
	c.Set(0)
}
