package lostsignal

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

// Take waits for the signal, then returns the message.
func (m *Mailbox) Take() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ready.Wait() // want "lost signal: g[0-9.]+ can signal Mailbox\\.ready#1 \\(mailbox\\.go:24\\) before g[0-9.]+ waits on it \\(mailbox\\.go:31\\), and the Wait then blocks forever; reproduced, the replay deadlocks"
	return m.msg
}
