package reservefixed

import (
	"errors"
	"sync"
)

// ErrExhausted is Get's error when every slot is taken.
var ErrExhausted = errors.New("pool exhausted")

// Pool hands out at most max connections.
type Pool struct {
	mu     sync.Mutex
	active int
	peak   int
	max    int
	dial   func(id int) error
}

// Get takes a slot and dials connection id in it.
func (p *Pool) Get(id int) error {
	p.mu.Lock()
	if p.active >= p.max {
		p.mu.Unlock()
		return ErrExhausted
	}
	// The check and the slot it grants are one critical section.
	p.active++
	p.peak = max(p.peak, p.active)
	p.mu.Unlock()
	if err := p.dial(id); err != nil {
		// The slot is given back.
		p.mu.Lock()
		p.active--
		p.mu.Unlock()
		return err
	}
	return nil
}
