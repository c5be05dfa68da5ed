// Package generic is a check-then-act on a generic type.
package generic

import "sync"

type Box[T any] struct {
	mu  sync.Mutex
	v   T
	set bool
}

// SetOnce checks and sets in separate critical sections.
func (b *Box[T]) SetOnce(v T) bool {
	b.mu.Lock()
	done := b.set // want `^candidate av RWW: generic.go:15:12 generic.go:22:4 generic.go:22:4$`
	b.mu.Unlock()
	if done {
		return false
	}
	b.mu.Lock()
	b.v = v
	b.set = true
	b.mu.Unlock()
	return true
}

func Use() {
	var b Box[int]
	go b.SetOnce(1)
	b.SetOnce(2)
}
