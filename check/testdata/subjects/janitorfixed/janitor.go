package janitorfixed

import (
	"sync"
	"time"
)

// Janitor sweeps touched entries on a timer.
type Janitor struct {
	mu     sync.Mutex
	dirty  int
	last   int // backlog after the last sweep, for statistics
	swept  chan int
	stop   chan struct{}
	period time.Duration
}

// New returns a janitor sweeping every period.
func New(period time.Duration) *Janitor {
	return &Janitor{swept: make(chan int, 16), stop: make(chan struct{}), period: period}
}

// Touch marks one entry touched.
func (j *Janitor) Touch() { j.mu.Lock(); j.dirty++; j.mu.Unlock() }

// take returns the entries touched since the last sweep and forgets them.
func (j *Janitor) take() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	n := j.dirty
	j.dirty = 0
	return n
}

// backlog notes how many entries wait for the next sweep.
func (j *Janitor) backlog() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.last = j.dirty
}

// Run sweeps on every tick until Stop.
func (j *Janitor) Run() {
	t := time.NewTimer(j.period)
	defer t.Stop()
	for {
		select {
		case <-j.stop:
			return
		case <-t.C:
			n := j.take()
			j.backlog()
			j.swept <- n
			t.Reset(j.period)
		}
	}
}

// Swept returns the channel each sweep sends its count on.
func (j *Janitor) Swept() <-chan int { return j.swept }

// Stop ends Run.
func (j *Janitor) Stop() { close(j.stop) }
