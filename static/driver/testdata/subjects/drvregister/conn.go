// Package drvregister has no tests: every pair of exported methods of its
// types is driven, but for callback registrations (callbackRegistration).
package drvregister

import (
	"io"
	"sync"
	"time"
)

// Conn is nbio's ClientConn: OnClose is a registration (a callback stored
// whole, no lock, written nowhere else, never called by the package, and
// a Conn runs no goroutine until its user calls Do). No driver calls it.
type Conn struct {
	mu      sync.Mutex
	closed  bool
	pending []string
	onClose func()
}

// Dial hands out a Conn; it starts nothing.
func Dial() *Conn { return &Conn{} }

// OnClose registers a callback for closing.
func (c *Conn) OnClose(h func()) {
	c.onClose = h
}

// Do queues a request.
func (c *Conn) Do(req string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		c.pending = append(c.pending, req)
	}
}

// Close closes the connection and calls the callback.
func (c *Conn) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.closed = true
	c.pending = nil
	if c.onClose != nil {
		c.onClose()
	}
}

// Reader starts its reading goroutine in Open: a callback registered
// after Open returns races with it however the user orders the calls.
// Driven.
type Reader struct {
	mu      sync.Mutex
	closed  bool
	onClose func()
}

// Open starts the reader.
func Open(r io.Reader) *Reader {
	rd := &Reader{}
	rd.start(r)
	return rd
}

func (rd *Reader) start(r io.Reader) {
	go func() {
		_, _ = io.ReadAll(r)
		rd.Close()
	}()
}

// OnClose registers a callback for closing.
func (rd *Reader) OnClose(h func()) {
	rd.onClose = h
}

// Close closes the reader and calls the callback.
func (rd *Reader) Close() {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	if !rd.closed {
		rd.closed = true
		if rd.onClose != nil {
			rd.onClose()
		}
	}
}

// Deadline's SetTimeout stores a value its operations work with, made to
// change while they run: driven.
type Deadline struct {
	mu      sync.Mutex
	timeout time.Duration
	n       int
}

// SetTimeout sets the timeout of the next waits.
func (d *Deadline) SetTimeout(t time.Duration) {
	d.timeout = t
}

// Wait counts a wait of the timeout.
func (d *Deadline) Wait() time.Duration {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.n++
	return d.timeout
}

// Locked's SetCallback takes the lock its readers take, as ttlcache's
// SetNewItemCallback: meant to run beside them. Driven.
type Locked struct {
	mu sync.Mutex
	cb func(int)
	n  int
}

// SetCallback sets the callback of Add.
func (l *Locked) SetCallback(f func(int)) {
	l.mu.Lock()
	l.cb = f
	l.mu.Unlock()
}

// Add counts and calls the callback.
func (l *Locked) Add() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
	if l.cb != nil {
		l.cb(l.n)
	}
}

// Cleared's callback field is cleared by Close too: not configuration
// alone. Driven.
type Cleared struct {
	mu     sync.Mutex
	onDone func()
}

// OnDone registers a callback for Close.
func (c *Cleared) OnDone(h func()) {
	c.onDone = h
}

// Close calls the callback once.
func (c *Cleared) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.onDone != nil {
		c.onDone()
		c.onDone = nil
	}
}

// Rearmed's setter is called by the package itself, at run time. Driven.
type Rearmed struct {
	mu     sync.Mutex
	onFire func()
	fired  int
}

// OnFire registers a callback for Fire.
func (r *Rearmed) OnFire(h func()) {
	r.onFire = h
}

// Reset forgets the callback.
func (r *Rearmed) Reset() {
	r.OnFire(nil)
}

// Fire counts and calls the callback.
func (r *Rearmed) Fire() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fired++
	if r.onFire != nil {
		r.onFire()
	}
}
