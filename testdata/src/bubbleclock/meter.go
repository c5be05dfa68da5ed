package bubbleclock

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

// Twice counts two events.
func (m *Meter) Twice() {
	m.mu.Lock()
	n := m.n // want "atomicity violation on Meter\\.n"
	m.mu.Unlock()
	m.mu.Lock()
	m.n = n + 2
	m.mu.Unlock()
}

// Count returns the events counted.
func (m *Meter) Count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.n
}
