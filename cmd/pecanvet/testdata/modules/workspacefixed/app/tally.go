// Package app is a counter in a go.work workspace, with the lock.
package app

import "sync"

// Tally counts events.
type Tally struct {
	mu sync.Mutex
	n  int
}

// Add counts one event, under the lock.
func (t *Tally) Add() {
	t.mu.Lock()
	t.n++
	t.mu.Unlock()
}

// N is the count.
func (t *Tally) N() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n
}
