package stopwaitfixed

import (
	"errors"
	"time"
)

var errTimeout = errors.New("stop: deadline passed")

// Pool runs submitted tasks on one worker goroutine.
type Pool struct {
	tasks chan func()
	stop  chan struct{}
}

// New starts a pool whose worker looks again every idle.
func New(idle time.Duration) *Pool {
	p := &Pool{tasks: make(chan func()), stop: make(chan struct{})}
	go p.run(idle)
	return p
}

func (p *Pool) run(idle time.Duration) {
	t := time.NewTimer(idle)
	defer t.Stop()
	for {
		select {
		case f := <-p.tasks:
			f()
		case <-t.C:
			t.Reset(idle)
		case <-p.stop:
			return
		}
	}
}

// Submit hands f to the worker.
func (p *Pool) Submit(f func()) { p.tasks <- f }

// StopAndWaitFor stops the worker and waits at most d for it.
func (p *Pool) StopAndWaitFor(d time.Duration) error {
	done := make(chan struct{}, 1) // the stopper ends even after the deadline
	go func() {
		p.stop <- struct{}{}
		done <- struct{}{}
	}()
	select {
	case <-done:
		return nil
	case <-time.After(d):
		return errTimeout
	}
}
