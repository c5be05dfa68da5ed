package timedtest

import "sync/atomic"

// Counter counts hits; Inc may be called from many goroutines.
type Counter struct {
	n int64
}

// Inc adds one: it loads the count and stores it plus one.
func (c *Counter) Inc() {
	old := atomic.LoadInt64(&c.n)  // want "atomicity violation .*on Counter\\.n.*test fails: .*timedtest_test\\.go:29"
	atomic.StoreInt64(&c.n, old+1) // another Inc's store in between is lost
}

// Load returns the count.
func (c *Counter) Load() int64 { return atomic.LoadInt64(&c.n) }
