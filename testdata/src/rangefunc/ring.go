package rangefunc

import (
	"iter"
	"sync"
)

// Ring holds readings in fixed slots.
type Ring struct {
	mu    sync.Mutex
	slots []int
}

// New returns a ring of n slots.
func New(n int) *Ring { return &Ring{slots: make([]int, n)} }

// Put stores v in slot i.
func (r *Ring) Put(i, v int) {
	r.mu.Lock()
	r.slots[i] = v // want "data race on \\[\\]int_elem"
	r.mu.Unlock()
}

// All yields the readings.
func (r *Ring) All() iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < len(r.slots); i++ {
			if !yield(r.slots[i]) {
				return
			}
		}
	}
}
