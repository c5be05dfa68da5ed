package hashset

import "sync"

// Set is a synchronized hash set.
type Set[T comparable] struct {
	mu   sync.Mutex
	m    map[T]struct{}
	size int
}

// New returns an empty set.
func New[T comparable]() *Set[T] { return &Set[T]{m: make(map[T]struct{})} }

// Contains reports whether v is in the set.
func (s *Set[T]) Contains(v T) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.m[v] // want "atomicity violation on map\\[T\\]struct\\{\\}"
	return ok
}

// Add adds v and reports whether it was not yet in the set.
func (s *Set[T]) Add(v T) bool {
	isNew := !s.Contains(v)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[v] = struct{}{}
	if isNew {
		s.size++
	}
	return isNew
}

// Remove removes v and reports whether it was in the set.
func (s *Set[T]) Remove(v T) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.m[v]; !ok {
		return false
	}
	delete(s.m, v)
	s.size--
	return true
}

// Len returns the number of elements.
func (s *Set[T]) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.size
}
