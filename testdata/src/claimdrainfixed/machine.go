package claimdrainfixed

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
	for {
		t, ok := m.fetch()
		if !ok {
			return
		}
		m.execute(t)
	}
}

// fetch claims the drain and takes the queue's head, if any.
func (m *Machine) fetch() (int, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.queue) == 0 {
		return 0, false
	}
	if !m.firing.CompareAndSwap(false, true) {
		return 0, false
	}
	t := m.queue[0]
	m.queue = m.queue[1:]
	return t, true
}

// execute runs t under the claim, which it releases.
func (m *Machine) execute(t int) {
	defer m.firing.Store(false)
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
