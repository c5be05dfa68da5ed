// Package counter is a shared counter: the classic subject.
package counter

import (
	"sync"
)

// Total counts all increments of all counters.
var Total int

// Counter is a mutex-protected counter.
type Counter struct {
	mu sync.Mutex
	n  int
	// hist records the values seen.
	hist  []int
	byKey map[string]int
}

// New returns a counter.
func New() *Counter { return &Counter{byKey: make(map[string]int)} }

// Inc increments c.
func (c *Counter) Inc() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	c.hist = append(c.hist, c.n)
	Total += 1
}

// Add adds k under key.
func (c *Counter) Add(key string, k int) int {
	c.mu.Lock()
	c.byKey[key] += k
	v := c.byKey[key]
	c.mu.Unlock()
	return v
}

// Get returns the count.
func (c *Counter) Get() int {
	c.mu.Lock()
	n := c.n
	c.mu.Unlock()
	return n
}

// Racy increments without the lock.
func (c *Counter) Racy() { c.n = c.n + 1 }

// Run increments c from g goroutines, k times each.
func Run(c *Counter, g, k int) {
	var wg sync.WaitGroup
	for i := 0; i < g; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < k; j++ {
				c.Inc()
			}
		}()
	}
	wg.Wait()
}
