package sendclosed

import "sync"

// Notifier delivers events to one subscriber.
type Notifier struct {
	mu     sync.Mutex
	closed bool
	ch     chan string
}

// New returns a notifier that buffers up to size events.
func New(size int) *Notifier { return &Notifier{ch: make(chan string, size)} }

// C returns the channel the subscriber receives from; it is closed by
// Close.
func (n *Notifier) C() <-chan string { return n.ch }

// Notify delivers ev unless the notifier is closed, and reports whether it
// did.
func (n *Notifier) Notify(ev string) bool {
	n.mu.Lock()
	closed := n.closed
	n.mu.Unlock()
	if closed {
		return false
	}
	n.ch <- ev // want "data race on chan_string"
	return true
}

// Close stops the notifier; the subscriber's channel is closed.
func (n *Notifier) Close() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.closed {
		n.closed = true
		close(n.ch)
	}
}
