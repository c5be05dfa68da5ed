package revalidate

import (
	"sync"
	"sync/atomic"
)

// Slots hands out at most max slots.
type Slots struct {
	mu  sync.Mutex
	n   int64 // written atomically under mu, loaded without it
	max int64
}

// New returns a pool of max slots.
func New(max int64) *Slots { return &Slots{max: max} }

// Take takes a slot if one is free.
func (s *Slots) Take() bool { return s.take() }

func (s *Slots) take() bool {
	if atomic.LoadInt64(&s.n) >= s.max { // want "atomicity violation on Slots\\.n: .*check-then-act: the value read at slots\\.go:22 decides"
		return false
	}
	s.mu.Lock()
	atomic.StoreInt64(&s.n, s.n+1)
	s.mu.Unlock()
	return true
}

// Taken is the number of slots taken.
func (s *Slots) Taken() int64 { return atomic.LoadInt64(&s.n) }
