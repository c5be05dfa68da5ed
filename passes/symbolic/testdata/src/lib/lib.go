// Package lib exports summaries (facts) of its exported methods.
package lib

import "sync"

type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) Inc() { c.n++ } // want Inc:`^summary: read lib.Counter.n, write lib.Counter.n$`

func (c *Counter) Lock() { c.mu.Lock() } // want Lock:`^summary:; acquires lib.Counter.mu$`

func (c *Counter) Unlock() { c.mu.Unlock() } // want Unlock:`^summary:; releases lib.Counter.mu$`

func (c *Counter) SafeInc() { // want SafeInc:`^summary: read lib.Counter.n \[held lib.Counter.mu\], write lib.Counter.n \[held lib.Counter.mu\]$`
	c.mu.Lock()
	defer c.mu.Unlock()
	c.Inc()
}

func (c *Counter) Loop(k int) { // want Loop:`^summary: write lib.Counter.n$`
	for range k {
		c.n = k
	}
}

// Unexported functions and methods of unexported types get no fact.
func helper(c *Counter) { c.n = 0 }

type hidden struct{ v int }

func (h *hidden) Set() { h.v = 1 }
