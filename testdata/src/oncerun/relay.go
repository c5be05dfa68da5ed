package oncerun

import "sync"

// Relay hands notifications to its listeners.
type Relay struct {
	mu        sync.Mutex
	n         int
	listeners map[int]*Listener
}

// NewRelay returns a relay without listeners.
func NewRelay() *Relay { return &Relay{listeners: map[int]*Listener{}} }

// Listener adds a listener.
func (r *Relay) Listener() *Listener {
	r.mu.Lock()
	defer r.mu.Unlock()
	l := &Listener{ch: make(chan int, 1), id: r.n, relay: r}
	r.listeners[r.n] = l
	r.n++
	return l
}

// Close closes every listener; it may run beside Listener.Close.
func (r *Relay) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, l := range r.listeners {
		l.once.Do(func() { // want "deadlock through sync\\.Once: g[0-9.]+ holds Relay\\.mu#1 \\(relay\\.go:27\\) and calls Do on Listener\\.once#[0-9]+ \\(relay\\.go:30\\) while g[0-9.]+'s call of Do on it \\(relay\\.go:50\\) runs its function, which waits for Relay\\.mu#1 .*; reproduced, the replay deadlocks: g[0-9.]+ in Lock Relay\\.mu#1 @relay\\.go:52, holding Listener\\.once#[0-9]+ \\(@relay\\.go:50:11\\); g[0-9.]+ in Lock Listener\\.once#[0-9]+ @relay\\.go:30, holding Relay\\.mu#1 \\(@relay\\.go:27:11\\)"
			close(l.ch)
			delete(r.listeners, l.id)
		})
	}
}

// Listener receives a relay's notifications on its channel.
type Listener struct {
	ch    chan int
	id    int
	relay *Relay
	once  sync.Once
}

// Ch returns the listener's channel, closed when it is closed.
func (l *Listener) Ch() <-chan int { return l.ch }

// Close closes the listener; it may run beside Relay.Close.
func (l *Listener) Close() {
	l.once.Do(func() {
		r := l.relay
		r.mu.Lock()
		defer r.mu.Unlock()
		close(l.ch)
		delete(r.listeners, l.id)
	})
}
