// Package tally is a counter in a module that declares go 1.16, with the lock.
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

// Funcs returns closures over a loop variable: under go 1.16 they share it.
func Funcs() []func() int {
	var fs []func() int
	for i := 0; i < 3; i++ {
		fs = append(fs, func() int { return i })
	}
	return fs
}
