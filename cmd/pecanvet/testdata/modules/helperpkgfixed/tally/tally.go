// Package tally counts events on a goroutine of its own.
package tally

import "sync/atomic"

// Tally counts events.
type Tally struct{ n int64 }

// Count counts k events on a goroutine of its own and closes done after.
func (t *Tally) Count(k int, done chan<- struct{}) {
	go func() {
		for i := 0; i < k; i++ {
			atomic.AddInt64(&t.n, 1)
		}
		close(done)
	}()
}

// N returns the count so far.
func (t *Tally) N() int64 {
	return atomic.LoadInt64(&t.n)
}
