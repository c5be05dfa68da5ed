package flagpublish

import "sync"

// Box publishes one value to readers.
type Box struct {
	mu    sync.Mutex
	ready bool
	data  int
}

// Publish stores v and marks the box ready.
func (b *Box) Publish(v int) {
	b.mu.Lock()
	b.ready = true // want "atomic-set-serializability violation on Box\\.ready, Box\\.data"
	b.mu.Unlock()
	b.data = v // want "data race on Box\\.data"
}

// Get returns the value once the box is ready.
func (b *Box) Get() (int, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.ready {
		return 0, false
	}
	return b.data, true
}
