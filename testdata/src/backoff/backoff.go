package backoff

import (
	"sync/atomic"
	"time"
)

// Backoff counts the failures of every sender sharing it.
type Backoff struct {
	failures atomic.Int64
}

// Delay is how long to wait before the next try: longer the more
// failures there were.
func (b *Backoff) Delay() time.Duration {
	return b.delay(b.failures.Load())
}

func (b *Backoff) delay(n int64) time.Duration {
	if n <= 0 {
		return 0
	}
	return time.Duration(n) * time.Millisecond
}

// Failure counts a failure and returns its number.
func (b *Backoff) Failure() int64 {
	n := b.failures.Load() // want "atomicity violation on Backoff\\.failures"
	b.failures.Add(1)
	return n + 1
}

// Send tries send until it succeeds, waiting before each retry, and
// returns the numbers of its failures.
func (b *Backoff) Send(send func() error) []int64 {
	var failed []int64
	for {
		if len(failed) > 0 {
			time.Sleep(b.Delay())
		}
		if send() == nil {
			return failed
		}
		failed = append(failed, b.Failure())
	}
}
