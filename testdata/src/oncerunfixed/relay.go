package oncerunfixed

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
		l.once.Do(func() {
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

// Close closes the listener; it may run beside Relay.Close. It takes the
// relay's lock before the Once, as Relay.Close does.
func (l *Listener) Close() {
	r := l.relay
	r.mu.Lock()
	defer r.mu.Unlock()
	l.once.Do(func() {
		close(l.ch)
		delete(r.listeners, l.id)
	})
}
