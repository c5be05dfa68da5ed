package cancelhang

import (
	"context"
	"sync"
)

// Machine is a two-state machine whose transition runs an enter
// callback.
type Machine struct {
	mu      sync.Mutex
	state   string
	onEnter func(ctx context.Context)
}

// New returns a machine in state "start" that calls onEnter on entering
// a new state.
func New(onEnter func(ctx context.Context)) *Machine {
	return &Machine{state: "start", onEnter: onEnter}
}

// Fire moves the machine to state to and runs its enter callback, unless
// ctx is done first.
func (m *Machine) Fire(ctx context.Context, to string) error {
	m.mu.Lock()
	if m.state == to {
		m.mu.Unlock()
		return nil
	}
	if err := ctx.Err(); err != nil {
		m.mu.Unlock()
		return err
	}
	m.state = to
	m.mu.Unlock()
	if m.onEnter != nil {
		m.onEnter(ctx)
	}
	return nil
}

// State returns the machine's state.
func (m *Machine) State() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state
}
