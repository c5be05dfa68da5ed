// Package xtest is tested by an external test package only.
package xtest

import "sync"

// Queue is a blocking queue.
type Queue struct {
	mu    sync.Mutex
	cond  *sync.Cond
	items []int
}

// NewQueue returns an empty queue.
func NewQueue() *Queue {
	q := &Queue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// Put appends v and wakes a taker.
func (q *Queue) Put(v int) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.cond.Signal()
	q.mu.Unlock()
}

// Take blocks until an item is there.
func (q *Queue) Take() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 {
		q.cond.Wait()
	}
	v := q.items[0]
	q.items = q.items[1:]
	return v
}
