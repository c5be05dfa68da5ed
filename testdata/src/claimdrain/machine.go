package claimdrain

import (
	"sync"
	"sync/atomic"
)

// Machine runs the triggers fired on it, one at a time, in order.
type Machine struct {
	firing atomic.Bool
	mu     sync.Mutex
	queue  []int
	ran    []int
	handle func(int)
}

// Fire queues t and, unless another Fire holds the claim, runs every
// queued trigger. A Fire that finds the claim held leaves t to the
// holder.
func (m *Machine) Fire(t int) {
	m.mu.Lock()
	m.queue = append(m.queue, t)
	m.mu.Unlock()
	if !m.firing.CompareAndSwap(false, true) { // want "atomicity violation on Machine.firing"
		return
	}
	for {
		t, ok := m.take()
		if !ok {
			break
		}
		m.run(t)
	}
	m.firing.Store(false)
}

// take takes the queue's head, if any.
func (m *Machine) take() (int, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.queue) == 0 {
		return 0, false
	}
	t := m.queue[0]
	m.queue = m.queue[1:]
	return t, true
}

// run handles t and records it.
func (m *Machine) run(t int) {
	if m.handle != nil {
		m.handle(t)
	}
	m.mu.Lock()
	m.ran = append(m.ran, t)
	m.mu.Unlock()
}

// Ran returns the triggers run, in order.
func (m *Machine) Ran() []int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]int(nil), m.ran...)
}
