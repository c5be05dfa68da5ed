package drvserialfixed

import "sync"

// Clock is a mock clock that tests advance by hand.
type Clock struct {
	mu     sync.Mutex
	now    int
	timers []func(int)
}

// NewClock returns a clock at zero.
func NewClock() *Clock { return &Clock{} }

// AfterFunc registers f to run with the time once the clock is advanced.
func (c *Clock) AfterFunc(f func(int)) {
	c.mu.Lock()
	c.timers = append(c.timers, f)
	c.mu.Unlock()
}

// Add moves the clock forward by d and runs the timers with the new
// time. This should only be called from a single goroutine at a time.
func (c *Clock) Add(d int) {
	c.mu.Lock()
	t := c.now + d
	fs := make([]func(int), len(c.timers))
	copy(fs, c.timers)
	c.mu.Unlock()
	for _, f := range fs {
		f(t)
	}
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

// Now returns the clock's time.
func (c *Clock) Now() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}
