package drvatomic

import (
	"errors"
	"sync"
	"sync/atomic"
)

// ErrClosed is returned by Write after Close.
var ErrClosed = errors.New("drvatomic: closed")

// Conn buffers writes until it is closed. It is safe for concurrent use.
type Conn struct {
	mu     sync.Mutex
	closed uint32
	buf    []byte
}

// NewConn returns an open connection.
func NewConn() *Conn { return &Conn{} }

// Write appends p, or returns ErrClosed once Close was called.
func (c *Conn) Write(p []byte) error {
	if c.closed != 0 { // want "data race on Conn\\.closed.*found by a generated driver calling Close and Write"
		return ErrClosed
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf = append(c.buf, p...)
	return nil
}

// Close marks the connection closed.
func (c *Conn) Close() {
	atomic.StoreUint32(&c.closed, 1)
}

// Len returns the number of bytes written.
func (c *Conn) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.buf)
}
