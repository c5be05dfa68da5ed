package mutexreset

import "sync"

// Counter counts under a mutex.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Inc adds one.
func (c *Counter) Inc() {
	c.mu.Lock() // want "data race on Counter\\.mu" "atomicity violation on Counter\\.mu"
	c.n++
	c.mu.Unlock() // want "data race on Counter\\.mu"
}

// Reset starts the count over.
func (c *Counter) Reset() {
	c.mu = sync.Mutex{} // want "data race on Counter\\.mu.*found by a generated driver calling Reset and Reset" "atomicity violation on "
	c.mu.Lock()
	c.n = 0
	c.mu.Unlock()
}

// N returns the count.
func (c *Counter) N() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}
