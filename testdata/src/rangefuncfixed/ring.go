package rangefuncfixed

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
	r.slots[i] = v
	r.mu.Unlock()
}

// All yields the readings, as they were when the iteration started.
func (r *Ring) All() iter.Seq[int] {
	return func(yield func(int) bool) {
		r.mu.Lock()
		snap := make([]int, len(r.slots))
		for i := range r.slots {
			snap[i] = r.slots[i]
		}
		r.mu.Unlock()
		for _, v := range snap {
			if !yield(v) {
				return
			}
		}
	}
}
