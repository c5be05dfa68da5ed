package jobqueuefixed

import "sync"

// Queue is a FIFO of jobs under a lock.
type Queue struct {
	mu   sync.Mutex
	jobs []int
}

// Push appends a job.
func (q *Queue) Push(j int) {
	q.mu.Lock()
	q.jobs = append(q.jobs, j)
	q.mu.Unlock()
}

// empty reports whether no job is queued.
func (q *Queue) empty() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.jobs) < 1
}

// TryTake takes the head job when the queue is not empty: the test and
// the take are two critical sections.
func (q *Queue) TryTake() (int, bool) {
	if q.empty() {
		return 0, false
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	j := q.jobs[0]
	q.jobs = q.jobs[1:]
	return j, true
}
