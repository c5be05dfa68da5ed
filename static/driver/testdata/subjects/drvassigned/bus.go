// Package drvassigned is a driver subject: the only test sets up its bus
// with a subscriber that assigns the test's variable, which the test reads
// only after its first Publish (simonfxr/pubsub's TestSubscribe, whose
// `fired` every generated driver's copied setup declared and did not use).
package drvassigned

import "sync"

// Bus hands each published value to its subscribers. It is safe for
// concurrent use (but for its count of publications).
type Bus struct {
	mu   sync.Mutex
	subs []func(int)
	sent int // not locked: Publish was written for one publisher
}

// Subscribe adds f to the subscribers.
func (b *Bus) Subscribe(f func(int)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.subs = append(b.subs, f)
}

// Publish calls every subscriber with v.
func (b *Bus) Publish(v int) {
	b.mu.Lock()
	subs := b.subs
	b.mu.Unlock()
	b.sent++
	for _, f := range subs {
		f(v)
	}
}
