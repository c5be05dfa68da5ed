package openjmsfixed

import (
	"errors"
	"sync"
)

// ErrResource is returned by Invoke on a connection without a multiplexer.
var ErrResource = errors.New("openjms: resource exception: no multiplexer")

// Handler serves one invocation.
type Handler func(req string) (string, error)

// Multiplexer carries invocations over the connection.
type Multiplexer struct {
	mu      sync.Mutex
	handler Handler
	calls   int
}

func (m *Multiplexer) invoke(req string) (string, error) {
	m.mu.Lock()
	m.calls++
	m.mu.Unlock()
	return m.handler(req)
}

// ManagedConnection is a connection managed by the resource adapter.
type ManagedConnection struct {
	mu          sync.Mutex
	multiplexer *Multiplexer
	once        sync.Once
	ready       chan struct{} // closed once the multiplexer is set
}

func (c *ManagedConnection) init() { c.once.Do(func() { c.ready = make(chan struct{}) }) }

// SetInvocationHandler creates the connection's multiplexer.
func (c *ManagedConnection) SetInvocationHandler(h Handler) {
	c.init()
	m := &Multiplexer{handler: h}
	c.mu.Lock()
	c.multiplexer = m
	c.mu.Unlock()
	close(c.ready)
}

// Invoke sends req over the connection, once it is set up.
func (c *ManagedConnection) Invoke(req string) (string, error) {
	c.init()
	<-c.ready
	c.mu.Lock()
	m := c.multiplexer
	c.mu.Unlock()
	if m == nil {
		return "", ErrResource
	}
	return m.invoke(req)
}
