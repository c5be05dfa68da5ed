package timedtestfixed

import "sync/atomic"

// Counter counts hits; Inc may be called from many goroutines.
type Counter struct {
	n int64
}

// Inc adds one: a CAS loop, which stores the count plus one only if the
// count is still what it loaded, and else loads it again.
func (c *Counter) Inc() {
	for {
		old := atomic.LoadInt64(&c.n)
		if atomic.CompareAndSwapInt64(&c.n, old, old+1) {
			return
		}
	}
}

// Load returns the count.
func (c *Counter) Load() int64 { return atomic.LoadInt64(&c.n) }
