package staleorder

import (
	"sync"
	"time"
)

// Pool holds connections by name.
type Pool struct {
	mu      sync.Mutex
	conns   map[string]*Conn
	evicted int
}

// Conn is one connection, with its own lock.
type Conn struct {
	mu      sync.Mutex
	name    string
	pending int
}

// Evict drains and removes the connection called name, if any.
func (p *Pool) Evict(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c, ok := p.conns[name]; ok { // want "lock-order inversion"
		c.mu.Lock()
		defer c.mu.Unlock()
		p.drain(c)
	}
}

// drain flushes c without the pool's lock, which the flush does not
// need, then removes it.
func (p *Pool) drain(c *Conn) {
	p.mu.Unlock()
	time.Sleep(time.Millisecond) // the flush
	c.pending = 0
	p.mu.Lock()
	delete(p.conns, c.name)
	p.evicted++
}

// Evicted returns how many connections were evicted.
func (p *Pool) Evicted() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.evicted
}
