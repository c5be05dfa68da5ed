// Package drvnosetup has a type that only the package's own function
// builds (with a callback its zero value lacks), as cockroach69408's
// blockingBuffer.
package drvnosetup

import "sync"

type buffer struct {
	mu     sync.Mutex
	n      int
	notify func()
}

func (b *buffer) Push() {
	b.notify()
	b.n++ // unlocked: Len locks
}

func (b *buffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.n
}

// Run pushes n times and returns the count.
func Run(n int) int {
	b := &buffer{notify: func() {}}
	for i := 0; i < n; i++ {
		b.Push()
	}
	return b.n
}
