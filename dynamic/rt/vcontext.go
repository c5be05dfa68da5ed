//go:build go1.21

package rt

import (
	"context"
	"sync"
	"time"
)

// WithTimeout is context.WithTimeout on the program's clock (vclock.go).
func WithTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return WithDeadline(parent, vnow().Add(d))
}

// WithDeadline is context.WithDeadline on the program's clock: under
// replay its deadline is an event of the virtual clock, so a replay does
// not wait it out in real time (ants' ReleaseTimeout: 3 s a replay).
//
// The context is one of its own, not package context's: one that embeds
// a cancelCtx would hand its children the cancelCtx, whose error on the
// deadline would be Canceled. Package context sees a foreign context and
// propagates its end to children by the error it reports.
func WithDeadline(parent context.Context, d time.Time) (context.Context, context.CancelFunc) {
	mu.Lock()
	if rp == nil {
		mu.Unlock()
		noteTimer(time.Until(d)) // driverquiet.go
		return context.WithDeadline(parent, d)
	}
	mu.Unlock()
	if cur, ok := parent.Deadline(); ok && cur.Before(d) {
		// The parent ends first: its end is the child's (as in package
		// context, which returns a plain cancel context then).
		return context.WithCancel(parent)
	}
	c := &vctx{parent: parent, deadline: d, done: make(chan struct{})}
	if d.Sub(vnow()) <= 0 {
		c.end(context.DeadlineExceeded)
		return c, func() { c.end(context.Canceled) }
	}
	stop := context.AfterFunc(parent, func() { c.end(parent.Err()) })
	mu.Lock()
	c.ev = armAt(d, "", func() { go c.end(context.DeadlineExceeded) })
	mu.Unlock()
	return c, func() {
		stop()
		c.end(context.Canceled)
	}
}

// vctx is a context with a deadline on the virtual clock.
type vctx struct {
	parent   context.Context
	deadline time.Time
	done     chan struct{}
	ev       *timed // under mu

	once sync.Once
	emu  sync.Mutex
	err  error
}

// end ends c with err, once; it cancels the deadline's event.
func (c *vctx) end(err error) {
	c.once.Do(func() {
		c.emu.Lock()
		c.err = err
		c.emu.Unlock()
		close(c.done)
		mu.Lock()
		disarm(c.ev)
		mu.Unlock()
	})
}

func (c *vctx) Deadline() (time.Time, bool) { return c.deadline, true }
func (c *vctx) Done() <-chan struct{}       { return c.done }
func (c *vctx) Value(key any) any           { return c.parent.Value(key) }

func (c *vctx) Err() error {
	c.emu.Lock()
	defer c.emu.Unlock()
	return c.err
}

func (c *vctx) String() string { return "context.WithDeadline(virtual)" }
