// Package counterfixed is counter with the lock: Hit holds Counter.mu.
package counterfixed

import "sync"

// Counter counts hits.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Hit adds one.
func (c *Counter) Hit() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// HitAll hits c from k goroutines and waits for them.
func HitAll(c *Counter, k int) {
	done := make(chan bool)
	for i := 0; i < k; i++ {
		go func() {
			c.Hit()
			done <- true
		}()
	}
	for i := 0; i < k; i++ {
		<-done
	}
}

// Value returns the count.
func (c *Counter) Value() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}
