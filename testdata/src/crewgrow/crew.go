package crewgrow

import "sync"

// Crew runs queued jobs on its workers, at most max at once.
type Crew struct {
	mu   sync.Mutex
	jobs []func()
	n    int // workers
	max  int
	wg   sync.WaitGroup
}

// New returns a crew of at most max workers with jobs queued.
func New(max int, jobs ...func()) *Crew {
	return &Crew{max: max, jobs: jobs}
}

// next takes the next job, or leaves the crew when there is none or the
// crew is over its limit.
func (c *Crew) next() (func(), bool) {
	c.mu.Lock()
	if len(c.jobs) == 0 {
		c.n--
		c.mu.Unlock()
		return nil, false
	}
	if c.n > c.max { // want "atomicity violation on Crew\\.n"
		c.n--
		c.mu.Unlock()
		return nil, false
	}
	job := c.jobs[0]
	c.jobs = c.jobs[1:]
	c.mu.Unlock()
	return job, true
}

func (c *Crew) work(job func()) {
	defer c.wg.Done()
	for {
		if job != nil {
			job()
		}
		var ok bool
		if job, ok = c.next(); !ok {
			return
		}
	}
}

// Start starts k workers on the queued jobs.
func (c *Crew) Start(k int) {
	c.mu.Lock()
	c.n += k
	c.mu.Unlock()
	c.wg.Add(k)
	for range k {
		go c.work(nil)
	}
}

// Grow adds a worker that runs job first, whatever the limit.
func (c *Crew) Grow(job func()) {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	c.wg.Add(1)
	go c.work(job)
}

// Submit queues a job for the workers.
func (c *Crew) Submit(job func()) {
	c.mu.Lock()
	c.jobs = append(c.jobs, job)
	c.mu.Unlock()
}

// Wait waits for every worker to leave.
func (c *Crew) Wait() { c.wg.Wait() }
