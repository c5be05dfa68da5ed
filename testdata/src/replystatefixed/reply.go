package replystatefixed

import (
	"errors"
	"sync"
	"sync/atomic"
)

const (
	committed  = 1 // a Write claimed the reply
	finalizing = 2 // the reply is finished
)

// ErrWritten is what a Write after the first one returns.
var ErrWritten = errors.New("reply already written")

// Reply is a response that may be written once (socket.io's HttpContext):
// Write claims it under mu, writes the body, and finishes it under mu.
type Reply struct {
	mu    sync.Mutex
	state atomic.Int32
	body  []string
}

// Done reports whether a Write claimed the reply or finished it.
func (c *Reply) Done() bool { return c.state.Load() != 0 }

// Write writes the reply's body once; a later Write returns ErrWritten.
func (c *Reply) Write(s string) error {
	c.mu.Lock()
	if c.Done() {
		c.mu.Unlock()
		return ErrWritten
	}
	c.state.Store(committed)
	c.mu.Unlock()
	c.mu.Lock()
	c.body = append(c.body, s)
	c.mu.Unlock()
	c.finish()
	return nil
}

func (c *Reply) finish() {
	c.mu.Lock()
	c.state.Store(c.state.Load() | finalizing)
	c.mu.Unlock()
}

// Body returns what was written.
func (c *Reply) Body() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.body
}
