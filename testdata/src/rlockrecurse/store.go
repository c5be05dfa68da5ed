package rlockrecurse

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
	s.mu.RLock() // want "recursive read lock: g[0-9.]+ holds Store\\.mu#1 for reading \\(store\\.go:23\\) and read-locks it again \\(store\\.go:15\\) while g[0-9.]+ waits to write-lock it \\(store\\.go:33\\), and a waiting writer keeps new readers out; reproduced, the replay deadlocks"
	defer s.mu.RUnlock()
	return s.def
}

// Get returns the value of key, or the default: it calls Default with
// its read lock held.
func (s *Store) Get(key string) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if v, ok := s.vals[key]; ok {
		return v
	}
	return s.Default()
}

// SetDefault changes the default value.
func (s *Store) SetDefault(v int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.def = v
}
