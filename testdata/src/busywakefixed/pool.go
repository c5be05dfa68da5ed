package busywakefixed

import (
	"sync"
	"sync/atomic"
)

// Pool counts its busy workers and wakes a dispatcher when fewer than
// limit are busy.
type Pool struct {
	sync.Mutex
	busy  int64
	limit int64
	wakes int
}

// NewPool returns a pool that wakes its dispatcher below limit busy
// workers.
func NewPool(limit int64) *Pool { return &Pool{limit: limit} }

func (p *Pool) inc() { atomic.AddInt64(&p.busy, 1) }

func (p *Pool) dec() { atomic.AddInt64(&p.busy, -1) }

// Busy returns how many workers are busy.
func (p *Pool) Busy() int64 { return atomic.LoadInt64(&p.busy) }

// Start counts a worker busy.
func (p *Pool) Start() { p.inc() }

// Done counts a worker no longer busy and wakes the dispatcher if it
// may start another.
func (p *Pool) Done() {
	p.dec()
	p.schedule()
}

// schedule wakes the dispatcher when fewer than limit workers are busy.
func (p *Pool) schedule() {
	p.Lock()
	defer p.Unlock()
	if p.Busy() >= p.limit {
		return
	}
	p.wakes++
}

// Wakes returns how many times the dispatcher was woken.
func (p *Pool) Wakes() int {
	p.Lock()
	defer p.Unlock()
	return p.wakes
}
