package atomicplain

import "sync/atomic"

// Counter counts hits from many goroutines.
type Counter struct {
	hits int64
}

// Hit counts one hit.
func (c *Counter) Hit() {
	// The add is atomic; Hits forgets to load atomically.
	atomic.AddInt64(&c.hits, 1) // want "data race on Counter\\.hits"
}

// Hits returns the number of hits so far.
func (c *Counter) Hits() int64 {
	return c.hits
}
