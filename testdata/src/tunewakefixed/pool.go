package tunewakefixed

import (
	"sync"
	"sync/atomic"
)

// Pool admits up to its capacity of holders.
type Pool struct {
	mu      sync.Mutex
	room    *sync.Cond
	cap     int32 // atomic: read without mu by readers outside the pool
	running int
	uses    int
}

// NewPool returns a pool of capacity n.
func NewPool(n int) *Pool {
	p := &Pool{cap: int32(n)}
	p.room = sync.NewCond(&p.mu)
	return p
}

// Running returns the number of holders.
func (p *Pool) Running() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.running
}

// Acquire takes a place, waiting while the pool is full.
func (p *Pool) Acquire() {
	p.mu.Lock()
	for int(atomic.LoadInt32(&p.cap)) <= p.running {
		// Tune broadcasts holding mu: not between the load above and
		// this Wait, which releases mu only once it waits.
		p.room.Wait()
	}
	p.running++
	p.uses++
	p.mu.Unlock()
}

// Tune sets the capacity to n and wakes the waiters, holding mu.
func (p *Pool) Tune(n int) {
	p.mu.Lock()
	atomic.StoreInt32(&p.cap, int32(n))
	p.room.Broadcast()
	p.mu.Unlock()
}

// Uses returns the number of Acquires so far.
func (p *Pool) Uses() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.uses
}

// ResetUses clears the count, after a look at it that decides nothing
// (a log line's count in the library this is cut from).
func (p *Pool) ResetUses() {
	p.Uses()
	p.mu.Lock()
	p.uses = 0
	p.mu.Unlock()
}
