package ctxafterfuncfixed

import "context"

// Conn is a connection that closes when its context is done.
type Conn struct {
	peer string
	done chan struct{}
	stop func() bool
}

// Dial opens a connection to peer that lives as long as ctx.
func Dial(ctx context.Context, peer string) *Conn {
	c := &Conn{done: make(chan struct{})}
	c.peer = peer
	c.stop = context.AfterFunc(ctx, func() {
		if c.peer != "" {
			close(c.done)
		}
	})
	return c
}

// Detach keeps the connection open after its context is done; it reports
// whether it did so in time.
func (c *Conn) Detach() bool { return c.stop() }

// Closed reports whether the connection was closed.
func (c *Conn) Closed() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// Wait returns when the connection is closed.
func (c *Conn) Wait() { <-c.done }
