package drvpool

import "sync"

// Pool runs work on each submitted job, on n goroutines started by
// Start. It is safe for concurrent use.
type Pool struct {
	mu        sync.Mutex
	n         int
	work      func(int)
	jobs      chan int
	wg        sync.WaitGroup
	submitted int
}

// NewPool returns a pool of n workers calling work; Start starts them.
func NewPool(n int, work func(int)) *Pool {
	return &Pool{n: n, work: work, jobs: make(chan int)}
}

// Start starts the workers.
func (p *Pool) Start() {
	for i := 0; i < p.n; i++ {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for x := range p.jobs {
				p.work(x)
			}
		}()
	}
}

// Submit hands x to a worker.
func (p *Pool) Submit(x int) {
	// The count is not locked: Submit was written for one producer.
	p.submitted++ // want "data race on Pool\\.submitted.*left Submitted\\(\\) = 1; called one after the other, they left Submitted\\(\\) = 2.*found by a generated driver calling Submit and Submit" "atomicity violation on Pool\\.submitted"
	p.jobs <- x
}

// Submitted returns how many jobs were submitted.
func (p *Pool) Submitted() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.submitted
}

// Stop waits for the submitted jobs and stops the workers.
func (p *Pool) Stop() {
	close(p.jobs)
	p.wg.Wait()
}
