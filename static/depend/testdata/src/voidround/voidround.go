// Package voidround holds lockfree's Michael-Scott queue (issue 26) for
// check's voidRounds: an Enqueue round with a stale tail whose link CAS,
// or helping swing, fails writes nothing and loads the tail again.
package voidround

import "sync/atomic"

type Queue[V any] struct {
	head, tail atomic.Pointer[element[V]]
	size       atomic.Int32
}

type element[V any] struct {
	value V
	next  atomic.Pointer[element[V]]
}

func New[V any]() *Queue[V] {
	q := &Queue[V]{}
	e := &element[V]{}
	q.head.Store(e)
	q.tail.Store(e)
	return q
}

func (q *Queue[V]) Enqueue(v V) bool {
	e := &element[V]{value: v}
	for {
		t := q.tail.Load()
		tn := t.next.Load()
		if tn == nil {
			if t.next.CompareAndSwap(tn, e) { // link
				q.tail.CompareAndSwap(t, e) // swing
				q.size.Add(1)
				return true
			}
		} else {
			q.tail.CompareAndSwap(t, tn) // help
		}
	}
}
