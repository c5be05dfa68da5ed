package recurretryfixed

import "sync/atomic"

// Index is an atomic counter behind a getter (cep21/circuit's
// AtomicInt64).
type Index struct{ atomic.Int64 }

// Get loads the index.
func (a *Index) Get() int64 { return a.Load() }

// Window is a lock-free rolling index (cep21/circuit's RollingBuckets).
type Window struct {
	Last  Index
	steps atomic.Int64 // buckets advanced, one per swapped step
}

// Advance moves the window to abs one bucket per CAS, re-calling itself
// for the next bucket, and the same way when a CAS fails: each call is
// a round of a retry loop that loads the index afresh.
func (w *Window) Advance(abs int64) int64 {
	last := w.Last.Get()
	if last >= abs {
		return abs
	}
	if !w.Last.CompareAndSwap(last, last+1) {
		// someone else is swapping
		return w.Advance(abs)
	}
	w.steps.Add(1)
	return w.Advance(abs)
}

// Steps returns how many buckets the window moved by.
func (w *Window) Steps() int64 { return w.steps.Load() }
