package countqueue

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
	q.stats.add(1)
	q.jobs = append(q.jobs, j)
}

// empty reports whether no job is queued.
func (q *Queue) empty() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.jobs) < 1 // want "atomicity violation on .*Queue"
}

// TryTake takes at most one job when the queue is not empty and uncounts
// one: the test, and the take with its uncount, are two critical
// sections.
func (q *Queue) TryTake() bool {
	if q.empty() {
		return false
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	n := min(len(q.jobs), 1)
	q.jobs = q.jobs[n:]
	q.stats.dec()
	return n == 1
}

// Drain takes every queued job and uncounts them.
func (q *Queue) Drain() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	n := len(q.jobs)
	q.jobs = nil
	q.stats.add(-n)
	return n
}

// counter counts the queued jobs and the times the count reached zero.
type counter struct {
	mu      sync.Mutex
	size    int
	empties int
}

func (c *counter) add(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.size += n
}

func (c *counter) dec() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.size--
	if c.size <= 0 {
		c.empties++
	}
}
