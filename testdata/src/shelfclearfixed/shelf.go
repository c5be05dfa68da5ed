package shelfclearfixed

import "sync"

// Shelf holds items by name.
type Shelf struct {
	mu    sync.Mutex
	items map[string]int
}

// clear deletes every item (tally's clearMetrics).
func (s *Shelf) clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k := range s.items {
		delete(s.items, k)
	}
}

// Registry lists shelves by name.
type Registry struct {
	mu      sync.Mutex
	shelves map[string]*Shelf
	// between runs in Purge after its lookup, before it clears the shelf
	// (a test's hook).
	between func()
}

// Purge clears the shelf named name, if listed.
func (r *Registry) Purge(name string) {
	r.mu.Lock()
	s, ok := r.shelves[name]
	r.mu.Unlock()
	if !ok {
		return
	}
	if r.between != nil {
		r.between()
	}
	s.clear()
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
