// Package tally is a counter with benchmarks and no tests, with the lock.
package tally

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
