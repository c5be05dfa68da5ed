package openjms

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
	handler Handler
	calls   int
}

func (m *Multiplexer) invoke(req string) (string, error) {
	m.calls++
	return m.handler(req)
}

// ManagedConnection is a connection managed by the resource adapter.
type ManagedConnection struct {
	mu          sync.Mutex
	multiplexer *Multiplexer
}

// SetInvocationHandler creates the connection's multiplexer.
func (c *ManagedConnection) SetInvocationHandler(h Handler) {
	m := &Multiplexer{handler: h}
	c.multiplexer = m // want "data race on ManagedConnection\\.multiplexer"
}

// Invoke sends req over the connection.
func (c *ManagedConnection) Invoke(req string) (string, error) {
	c.mu.Lock()
	m := c.multiplexer
	c.mu.Unlock()
	if m == nil {
		return "", ErrResource
	}
	return m.invoke(req)
}
