package getteractfixed

import (
	"sync"
	"sync/atomic"
)

// Pool counts its running workers and retires idle ones down to a minimum.
type Pool struct {
	mu      sync.Mutex // serializes Retire's check and decrement
	running atomic.Int32
	min     int32
}

// New returns a pool of n running workers that keeps at least min.
func New(n, min int32) *Pool {
	p := &Pool{min: min}
	p.running.Store(n)
	return p
}

// Running returns the number of running workers.
func (p *Pool) Running() int32 {
	return p.running.Load()
}

// Retire stops one worker unless the pool is at its minimum, and says
// whether it did.
func (p *Pool) Retire() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.Running() <= p.min {
		return false
	}
	p.running.Add(-1)
	return true
}
