package tunewake

import (
	"sync"
	"sync/atomic"
)

// Pool admits up to its capacity of holders.
type Pool struct {
	mu      sync.Mutex
	room    *sync.Cond
	cap     int32 // atomic: Tune stores it without mu
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
		// Tune's broadcast can come after the load above and before
		// this Wait: it wakes no one, and this waits with room.
		p.room.Wait() // want "lost signal: g[0-9.]+ can broadcast Pool\\.room#[0-9]+ \\(pool\\.go:47\\) before g[0-9.]+ waits on it \\(pool\\.go:37\\), and the Wait then blocks forever; reproduced, the replay deadlocks"
	}
	p.running++
	p.uses++
	p.mu.Unlock()
}

// Tune sets the capacity to n and wakes the waiters.
func (p *Pool) Tune(n int) {
	atomic.StoreInt32(&p.cap, int32(n))
	p.room.Broadcast()
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
