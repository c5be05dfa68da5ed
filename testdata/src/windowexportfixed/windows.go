package windowexportfixed

import "sync"

// Windows keeps one bucket of counts per epoch, the newest last.
type Windows struct {
	mu      sync.Mutex
	buckets []*Bucket
}

// Bucket is one epoch's counts.
type Bucket struct {
	epoch  int
	counts map[string]int
}

func newBucket(epoch int) *Bucket {
	return &Bucket{epoch: epoch, counts: make(map[string]int)}
}

// current returns epoch's bucket, appending it when the newest is
// another epoch's. w.mu is held.
func (w *Windows) current(epoch int) *Bucket {
	n := len(w.buckets)
	if n > 0 && w.buckets[n-1].epoch == epoch {
		return w.buckets[n-1]
	}
	b := newBucket(epoch)
	w.buckets = append(w.buckets, b)
	return b
}

// Add counts k in epoch's bucket.
func (w *Windows) Add(epoch int, k string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.current(epoch).counts[k]++
}

// Rotate makes epoch's bucket current and exports the bucket before it,
// the one epoch finished: its epoch and a copy of its counts (-1 and nil
// when there is none).
func (w *Windows) Rotate(epoch int) (int, map[string]int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.current(epoch)
	n := len(w.buckets)
	if n < 2 {
		return -1, nil
	}
	b := w.buckets[n-2]
	out := make(map[string]int, len(b.counts))
	for k, v := range b.counts {
		out[k] = v
	}
	return b.epoch, out
}
