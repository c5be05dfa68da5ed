package janitor

import (
	"sync"
	"time"
)

// Janitor sweeps touched entries on a timer.
type Janitor struct {
	mu     sync.Mutex
	dirty  int
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

// count returns the entries touched since the last sweep.
func (j *Janitor) count() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.dirty // want "atomicity violation on Janitor\\.dirty"
}

// reset forgets the touched entries.
func (j *Janitor) reset() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.dirty = 0
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
			n := j.count()
			j.reset()
			j.swept <- n
			t.Reset(j.period)
		}
	}
}

// Swept returns the channel each sweep sends its count on.
func (j *Janitor) Swept() <-chan int { return j.swept }

// Stop ends Run.
func (j *Janitor) Stop() { close(j.stop) }
