package drvassignfixed

import "sync"

// Bus hands each published value to its subscribers and counts the
// deliveries. It is safe for concurrent use.
type Bus struct {
	mu   sync.Mutex
	subs []*sub
}

type sub struct {
	f         func(int)
	delivered int
}

// NewBus returns a bus with no subscribers.
func NewBus() *Bus { return &Bus{} }

// Subscribe adds f to the subscribers.
func (b *Bus) Subscribe(f func(int)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.subs = append(b.subs, &sub{f: f})
}

// Publish calls every subscriber with v.
func (b *Bus) Publish(v int) {
	b.mu.Lock()
	subs := b.subs
	b.mu.Unlock()
	for _, s := range subs {
		s.f(v)
		b.mu.Lock()
		s.delivered++
		b.mu.Unlock()
	}
}

// Delivered returns how many values the subscribers were handed.
func (b *Bus) Delivered() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, s := range b.subs {
		n += s.delivered
	}
	return n
}
