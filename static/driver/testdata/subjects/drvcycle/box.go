// Package drvcycle has tests that use a package importing it (use), which
// its driver file, in package drvcycle, cannot import.
package drvcycle

import "sync"

// Box counts; Inc forgets the lock Get takes.
type Box struct {
	mu sync.Mutex
	n  int
}

// New returns an empty box.
func New() *Box { return &Box{} }

// Inc adds one.
func (b *Box) Inc() { b.n++ }

// Get returns the count.
func (b *Box) Get() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.n
}
