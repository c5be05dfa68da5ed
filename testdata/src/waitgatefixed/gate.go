package waitgatefixed

import (
	"sync"
	"sync/atomic"
)

// Gate lets one user in at a time; its buffer lives while someone is
// inside or waiting.
type Gate struct {
	mu      sync.Mutex
	waiters int32
	buf     []byte
}

// Enter counts itself as a waiter until it holds the gate, then makes
// the buffer if the last user freed it.
func (g *Gate) Enter() {
	atomic.AddInt32(&g.waiters, 1)
	g.mu.Lock()
	atomic.AddInt32(&g.waiters, -1)
	if g.buf == nil {
		g.buf = make([]byte, 1)
	}
}

// Use writes to the buffer; the caller is inside.
func (g *Gate) Use(b byte) { g.buf[0] = b }

// Leave frees the buffer when no one waits, and lets the next user in.
func (g *Gate) Leave() {
	if atomic.LoadInt32(&g.waiters) == 0 {
		g.buf = nil
	}
	g.mu.Unlock()
}

// Freed reports whether the buffer is freed.
func (g *Gate) Freed() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.buf == nil
}
