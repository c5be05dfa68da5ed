package atomicplainfixed

import "sync/atomic"

// Counter counts hits from many goroutines.
type Counter struct {
	hits int64
}

// Hit counts one hit.
func (c *Counter) Hit() {
	atomic.AddInt64(&c.hits, 1)
}

// Hits returns the number of hits so far.
func (c *Counter) Hits() int64 {
	return atomic.LoadInt64(&c.hits)
}
