package sendclosedfixed

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

// Notify delivers ev unless the notifier is closed or its buffer is full,
// and reports whether it did.
func (n *Notifier) Notify(ev string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return false
	}
	select {
	case n.ch <- ev:
		return true
	default:
		return false
	}
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
