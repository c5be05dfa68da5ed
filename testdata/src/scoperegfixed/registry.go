package scoperegfixed

import (
	"sync"
	"sync/atomic"
)

// Scope counts named metrics until it is closed.
type Scope struct {
	mu     sync.Mutex
	counts map[string]int64
	closed atomic.Bool
}

// Inc adds n to the metric name.
func (s *Scope) Inc(name string, n int64) {
	s.mu.Lock()
	s.counts[name] += n
	s.mu.Unlock()
}

// Close closes the scope: the registry replaces it.
func (s *Scope) Close() { s.closed.Store(true) }

// report emits the scope's counts.
func (s *Scope) report(emit func(string, int64)) {
	s.mu.Lock()
	for name, n := range s.counts {
		emit(name, n)
	}
	s.mu.Unlock()
}

// Registry keeps one open scope per name.
type Registry struct {
	mu     sync.RWMutex
	scopes map[string]*Scope
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{scopes: map[string]*Scope{}} }

// Get returns the scope named name, replacing a closed one by a new scope.
func (r *Registry) Get(name string) *Scope {
	r.mu.RLock()
	s, ok := r.scopes[name]
	r.mu.RUnlock()
	if ok && !s.closed.Load() {
		return s
	}
	if ok {
		r.mu.Lock()
		delete(r.scopes, name)
		r.mu.Unlock()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.scopes[name]; ok {
		return s
	}
	s = &Scope{counts: map[string]int64{}}
	r.scopes[name] = s
	return s
}

// Report emits every scope's counts, and marks the closed scopes.
func (r *Registry) Report(emit func(string, int64)) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	for name, s := range r.scopes {
		s.report(emit)
		if s.closed.Load() {
			emit("closed."+name, 1)
		}
	}
}
