// Package gmutex: two goroutines increment a shared counter under a mutex.
package gmutex

import "sync"

// Counter is shared.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Inc increments under the lock.
func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// Twice increments from two goroutines.
func Twice(c *Counter) {
	done := make(chan bool)
	for range 2 {
		go func() {
			c.Inc()
			done <- true
		}()
	}
	<-done
	<-done
}
