package ctxafterfunc

import "context"

// Conn is a connection that closes when its context is done.
type Conn struct {
	peer   string
	closed bool
}

// Dial opens a connection to peer that lives as long as ctx.
func Dial(ctx context.Context, peer string) *Conn {
	c := &Conn{}
	c.peer = peer
	context.AfterFunc(ctx, func() {
		if c.peer != "" {
			c.closed = true // want "data race on Conn\\.closed"
		}
	})
	return c
}

// Closed reports whether the connection was closed.
func (c *Conn) Closed() bool {
	return c.closed
}
