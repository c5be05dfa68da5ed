package rlockrecursefixed

import "sync"

// Store is a configuration map with a default value, under a
// reader/writer lock.
type Store struct {
	mu   sync.RWMutex
	vals map[string]int
	def  int
}

// Default returns the default value.
func (s *Store) Default() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.def
}

// Get returns the value of key, or the default, under one read lock.
func (s *Store) Get(key string) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if v, ok := s.vals[key]; ok {
		return v
	}
	return s.def
}

// SetDefault changes the default value.
func (s *Store) SetDefault(v int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.def = v
}
