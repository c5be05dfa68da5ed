package resizebit

import "sync/atomic"

// Queue hands out slots; its index is twice the next slot, odd while a
// resize runs (JCTools' MpscGrowableArrayQueue, otter's MPSC).
type Queue struct {
	idx  atomic.Uint64
	size atomic.Uint64
}

// Grow claims a slot and doubles the capacity: it marks the index odd,
// resizes, and stores the index past its slot.
func (q *Queue) Grow() uint64 {
	for {
		i := q.idx.Load()
		if i&1 == 1 {
			continue
		}
		if q.idx.CompareAndSwap(i, i+1) { // want "atomicity violation on Queue\\.idx"
			q.size.Store(2*q.size.Load() + 1)
			q.idx.Store(i + 2)
			return i / 2
		}
	}
}

// Next claims the next slot.
func (q *Queue) Next() uint64 {
	for {
		i := q.idx.Load()
		if q.idx.CompareAndSwap(i, i+2) {
			return i / 2
		}
	}
}
