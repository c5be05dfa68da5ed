package selectclosefixed

import "sync"

// Mailbox holds at most one message.
type Mailbox struct {
	mu     sync.Mutex
	closed bool
	ch     chan string
}

// New returns an open mailbox.
func New() *Mailbox { return &Mailbox{ch: make(chan string, 1)} }

// Post delivers msg and reports whether it did: not if the mailbox is
// closed, nor if it is full.
func (m *Mailbox) Post(msg string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return false
	}
	select {
	case m.ch <- msg:
		return true
	default:
		return false
	}
}

// Close closes the mailbox and returns the messages left in it.
func (m *Mailbox) Close() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var left []string
	m.closed = true
	close(m.ch)
	for msg := range m.ch {
		left = append(left, msg)
	}
	return left
}
