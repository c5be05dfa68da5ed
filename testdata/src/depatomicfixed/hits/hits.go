// Package hits counts hits; its users add to a Counter's N atomically.
package hits

import "sync/atomic"

// Counter counts hits. Add to N atomically: Hit, or atomic.AddInt64.
type Counter struct{ N int64 }

// Hit counts one hit.
func (c *Counter) Hit() {
	atomic.AddInt64(&c.N, 1)
}

// Hits returns the number of hits so far.
func (c *Counter) Hits() int64 {
	return atomic.LoadInt64(&c.N)
}
