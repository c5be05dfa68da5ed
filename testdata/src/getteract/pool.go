package getteract

import "sync/atomic"

// Pool counts its running workers and retires idle ones down to a minimum.
type Pool struct {
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
	return p.running.Load() // want "atomicity violation on Pool\\.running"
}

// Retire stops one worker unless the pool is at its minimum, and says
// whether it did.
func (p *Pool) Retire() bool {
	if p.Running() <= p.min {
		return false
	}
	p.running.Add(-1)
	return true
}
