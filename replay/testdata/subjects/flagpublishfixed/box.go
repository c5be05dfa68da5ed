package flagpublishfixed

import "sync"

// Box publishes one value to readers.
type Box struct {
	mu    sync.Mutex
	ready bool
	data  int
}

// Publish stores v, then marks the box ready: the mutex orders the store
// before any Get that sees the flag.
func (b *Box) Publish(v int) {
	b.data = v
	b.mu.Lock()
	b.ready = true
	b.mu.Unlock()
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
