package claimbit

import (
	"runtime"
	"sync/atomic"
)

const size = 4

// Queue is a ring of counts with many producers and one consumer. The
// producer index is twice the items pushed, odd while a push fills the
// slot it claimed (JCTools' MpscGrowableArrayQueue, otter's MPSC); the
// consumer index is twice the items popped.
type Queue struct {
	idx   atomic.Uint64
	cons  atomic.Uint64
	slots [size]atomic.Pointer[int]
}

// Push appends the count v (the ring is assumed not full); it rejects a
// negative one, and then reports false.
func (q *Queue) Push(v int) bool {
	for {
		i := q.idx.Load()
		if i&1 == 1 {
			continue
		}
		if q.push(i, v) {
			return v >= 0
		}
	}
}

// push claims slot i/2 by marking the index odd, fills it and stores
// the index past it; a count that is not one is rejected after the
// claim, and the index restored.
func (q *Queue) push(i uint64, v int) bool {
	if !q.idx.CompareAndSwap(i, i+1) { // want "atomicity violation on Queue\\.idx"
		return false
	}
	if v < 0 {
		q.idx.Store(i)
		return true
	}
	q.slots[i/2%size].Store(&v)
	q.idx.Store(i + 2)
	return true
}

// Pop takes the oldest count, or reports false when the queue is empty.
// An index that is not its own says a producer claimed the next slot:
// it waits for the slot to be filled.
func (q *Queue) Pop() (int, bool) {
	c := q.cons.Load()
	if c == q.idx.Load() {
		return 0, false
	}
	s := &q.slots[c/2%size]
	for n := 0; ; n++ {
		if p := s.Load(); p != nil {
			s.Store(nil)
			q.cons.Store(c + 2)
			return *p, true
		}
		if n == 10000 {
			panic("pop: a claimed slot is never filled")
		}
		runtime.Gosched()
	}
}
