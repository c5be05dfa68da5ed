package selectclose

// Mailbox holds at most one message.
type Mailbox struct {
	ch chan string
}

// New returns an open mailbox.
func New() *Mailbox { return &Mailbox{ch: make(chan string, 1)} }

// Post delivers msg and reports whether it did: not if the mailbox is
// closed, nor if it is full.
func (m *Mailbox) Post(msg string) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	select {
	case m.ch <- msg: // want "data race on chan_string"
		return true
	default:
		return false
	}
}

// Close closes the mailbox and returns the messages left in it.
func (m *Mailbox) Close() []string {
	var left []string
	close(m.ch)
	for msg := range m.ch {
		left = append(left, msg)
	}
	return left
}
