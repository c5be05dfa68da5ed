package jobqueue

import "sync"

// Queue is a FIFO of jobs under a lock; Drain moves them to done in
// batches.
type Queue struct {
	mu      sync.Mutex
	jobs    []int
	done    []int
	batches int
}

// Push appends a job.
func (q *Queue) Push(j int) {
	q.mu.Lock()
	q.jobs = append(q.jobs, j)
	q.mu.Unlock()
}

// Clear drops every queued job.
func (q *Queue) Clear() {
	q.mu.Lock()
	q.jobs = nil
	q.mu.Unlock()
}

// empty reports whether no job is queued.
func (q *Queue) empty() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.jobs) < 1 // want "atomicity violation on .*Queue"
}

// Drain moves the queued jobs to done as one batch when the queue is not
// empty: the test and the move are two critical sections.
func (q *Queue) Drain() {
	if q.empty() {
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.batches++
	q.done = append(q.done, q.jobs...)
	q.jobs = nil
}
