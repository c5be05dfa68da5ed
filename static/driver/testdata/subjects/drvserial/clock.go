// Package drvserial has a mock clock meant for concurrent use (it holds
// a mutex) whose Add and Set say in their docs that they are called from
// one goroutine at a time (benbjohnson/clock's Mock), WaitAll that calls
// Set on its own receiver, Follow that calls Set on another clock, and
// Now, which nothing restricts. No driver calls two of Add, Set and
// WaitAll together; Now and Follow keep their drivers.
package drvserial

import "sync"

// Clock is a mock clock.
type Clock struct {
	mu  sync.Mutex
	now int
}

// Add moves the clock forward by d.
// This should only be called from a single goroutine at a time.
func (c *Clock) Add(d int) {
	c.mu.Lock()
	t := c.now + d
	c.mu.Unlock()
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

// Set sets the clock to t.
// This should only be called from a single goroutine at a time.
func (c *Clock) Set(t int) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

// WaitAll moves the clock to the end of time.
func (c *Clock) WaitAll() int {
	c.Set(1 << 30)
	return c.Now()
}

// Follow sets o to this clock's time.
func (c *Clock) Follow(o *Clock) {
	o.Set(c.Now())
}

// Now returns the clock's time.
func (c *Clock) Now() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}
