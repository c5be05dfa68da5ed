package bubbleclockfixed

import "sync"

// Meter counts events.
type Meter struct {
	mu sync.Mutex
	n  int
}

// Inc counts one event.
func (m *Meter) Inc() {
	m.mu.Lock()
	m.n++
	m.mu.Unlock()
}

// Twice counts two events, one at a time.
func (m *Meter) Twice() {
	m.mu.Lock()
	m.n++
	m.mu.Unlock()
	m.mu.Lock()
	m.n++
	m.mu.Unlock()
}

// Count returns the events counted.
func (m *Meter) Count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.n
}
