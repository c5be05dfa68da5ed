package shelfclear

import "sync"

// Shelf holds items by name.
type Shelf struct {
	mu    sync.Mutex
	items map[string]int
}

// clear deletes every item and returns how many it deleted.
func (s *Shelf) clear() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for k := range s.items {
		delete(s.items, k)
		n++
	}
	return n
}

// Registry lists shelves by name.
type Registry struct {
	mu      sync.Mutex
	shelves map[string]*Shelf
	// between runs in Purge after its lookup, before it clears the shelf
	// (a test's hook).
	between func()
}

// Purge clears the shelf named name and returns how many items it
// cleared, or -1 when no shelf is listed under name.
func (r *Registry) Purge(name string) int {
	r.mu.Lock()
	s, ok := r.shelves[name] // want "atomic-set-serializability violation on map\\[string\\]\\*Shelf, map\\[string\\]int: .*check-then-act: the value read at shelf\\.go:36 decides the call of Shelf\\.clear"
	r.mu.Unlock()
	if !ok {
		return -1
	}
	if r.between != nil {
		r.between()
	}
	return s.clear()
}

// Drop unlists the shelf named name and clears it.
func (r *Registry) Drop(name string) {
	r.mu.Lock()
	s, ok := r.shelves[name]
	delete(r.shelves, name)
	r.mu.Unlock()
	if ok {
		s.clear()
	}
}
