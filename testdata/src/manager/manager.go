package manager

import (
	"errors"
	"fmt"
	"sync"
)

// ErrExhausted is returned when no resource is free.
var ErrExhausted = errors.New("manager: no free resource")

// Manager hands out n numbered resources.
type Manager struct {
	mu    sync.Mutex
	free  []int    // ids of the free resources
	owner []string // owner[id] == "" when id is free
}

// New returns a manager of n resources.
func New(n int) *Manager {
	m := &Manager{owner: make([]string, n)}
	for id := range n {
		m.free = append(m.free, id)
	}
	return m
}

func (m *Manager) peek() (int, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.free) == 0 { // want "atomicity violation on "
		return 0, false
	}
	return m.free[len(m.free)-1], true
}

func (m *Manager) take(id int, client string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.owner[id] != "" {
		panic(fmt.Sprintf("manager: resource %d handed out twice", id))
	}
	m.owner[id] = client
	m.free = m.free[:len(m.free)-1]
}

// Acquire gives client a free resource and returns its id.
func (m *Manager) Acquire(client string) (int, error) {
	id, ok := m.peek()
	if !ok {
		return 0, ErrExhausted
	}
	m.take(id, client)
	return id, nil
}

// Release gives resource id back.
func (m *Manager) Release(id int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.owner[id] = ""
	m.free = append(m.free, id)
}

// Owner returns who holds resource id.
func (m *Manager) Owner(id int) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.owner[id]
}
