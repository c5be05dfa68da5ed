// Package drvlit has an internal test that builds a value of its own type
// with a positional literal of an unexported field.
package drvlit

import "sync"

// Store keeps values; Put forgets the lock Len takes.
type Store struct {
	mu   sync.Mutex
	vals []interface{}
}

// New returns an empty store.
func New() *Store { return &Store{} }

// Put adds v.
func (s *Store) Put(v interface{}) { s.vals = append(s.vals, v) }

// Len returns the number of values.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.vals)
}
