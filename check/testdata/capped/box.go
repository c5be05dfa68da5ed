package capped

import "sync"

// Box is set without a lock: two goroutines setting it race.
type Box struct{ v int }

func (b *Box) Set(v int) { b.v = v }

// Counter counts under its mutex.
type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}
