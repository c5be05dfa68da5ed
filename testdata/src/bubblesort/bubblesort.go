package bubblesort

import "sync"

// Array is a synchronized array of ints.
type Array struct {
	mu sync.Mutex
	a  []int
}

// Of returns an array holding a copy of vs.
func Of(vs ...int) *Array { return &Array{a: append([]int(nil), vs...)} }

// Len returns the length of the array.
func (s *Array) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.a)
}

// Get returns element i.
func (s *Array) Get(i int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.a[i]
}

// Set stores v in element i and returns the old value.
func (s *Array) Set(i, v int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.a[i]
	s.a[i] = v // want "atomic-set-serializability violation on \\[\\]int_elem"
	return old
}

// Swap swaps elements i and j.
func (s *Array) Swap(i, j int) {
	s.Set(i, s.Set(j, s.Get(i)))
}

// Snapshot returns a copy of the array.
func (s *Array) Snapshot() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]int, len(s.a))
	for i := range s.a {
		out[i] = s.a[i]
	}
	return out
}

// BubbleSort sorts s in increasing order.
func BubbleSort(s *Array) {
	for n := s.Len(); n > 1; n-- {
		for i := 0; i+1 < n; i++ {
			if s.Get(i) > s.Get(i+1) {
				s.Swap(i, i+1)
			}
		}
	}
}
