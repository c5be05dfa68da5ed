package windowexport

import "sync"

// Windows keeps one bucket of counts per epoch, the newest last.
type Windows struct {
	mu      sync.RWMutex
	buckets []*Bucket
}

// Bucket is one epoch's counts.
type Bucket struct {
	mu     sync.Mutex
	epoch  int
	counts map[string]int
}

func newBucket(epoch int) *Bucket {
	return &Bucket{epoch: epoch, counts: make(map[string]int)}
}

// current returns epoch's bucket, appending it when the newest is
// another epoch's.
func (w *Windows) current(epoch int) *Bucket {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(w.buckets) // want "atomicity violation on Windows\\.buckets: .*test fails"
	if n > 0 && w.buckets[n-1].epoch == epoch {
		return w.buckets[n-1]
	}
	b := newBucket(epoch)
	w.buckets = append(w.buckets, b) // want "atomic-set-serializability violation on Windows\\.buckets, map\\[string\\]int: .*test fails"
	return b
}

// Add counts k in epoch's bucket.
func (w *Windows) Add(epoch int, k string) {
	b := w.current(epoch)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.counts[k]++
}

// Rotate makes epoch's bucket current and exports the bucket before it,
// the one epoch finished: its epoch and a copy of its counts (-1 and nil
// when there is none).
func (w *Windows) Rotate(epoch int) (int, map[string]int) {
	w.current(epoch)
	w.mu.RLock()
	defer w.mu.RUnlock()
	n := len(w.buckets)
	if n < 2 {
		return -1, nil
	}
	b := w.buckets[n-2]
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make(map[string]int, len(b.counts))
	for k, v := range b.counts {
		out[k] = v
	}
	return b.epoch, out
}
