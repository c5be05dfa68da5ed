package lostsignalfixed

import "sync"

// Mailbox holds one message; Take waits for it.
type Mailbox struct {
	mu    sync.Mutex
	ready *sync.Cond
	msg   string
}

// NewMailbox returns an empty mailbox.
func NewMailbox() *Mailbox {
	m := &Mailbox{}
	m.ready = sync.NewCond(&m.mu)
	return m
}

// Put stores msg and wakes the taker.
func (m *Mailbox) Put(msg string) {
	m.mu.Lock()
	m.msg = msg
	m.mu.Unlock()
	m.ready.Signal()
}

// Take waits until a message is there, then returns it.
func (m *Mailbox) Take() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	for m.msg == "" {
		m.ready.Wait()
	}
	return m.msg
}
