package countqueuefixed

import "sync"

// Queue is a FIFO of jobs under a lock, with a count of its own.
type Queue struct {
	mu    sync.Mutex
	jobs  []int
	stats counter
}

// Push counts a job and appends it, in one critical section.
func (q *Queue) Push(j int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.stats.inc()
	q.jobs = append(q.jobs, j)
}

// empty reports whether no job is queued.
func (q *Queue) empty() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.jobs) < 1
}

// TryTake takes the head job when the queue is not empty and uncounts
// it: the test, and the take with its uncount, are two critical
// sections.
func (q *Queue) TryTake() (int, bool) {
	if q.empty() {
		return 0, false
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	j := q.jobs[0]
	q.jobs = q.jobs[1:]
	q.stats.dec()
	return j, true
}

// counter counts the queued jobs and the times the count went to zero.
type counter struct {
	mu      sync.Mutex
	size    int
	empties int
}

func (c *counter) inc() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.size++
}

func (c *counter) dec() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.size--
	if c.size <= 0 {
		c.empties++
	}
}
