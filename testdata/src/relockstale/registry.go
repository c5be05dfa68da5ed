package relockstale

import "sync"

// Registry holds the names known, loaded once.
type Registry struct {
	mu     sync.Mutex
	loaded bool
	names  map[string]bool
}

// Has reports whether name is known, loading the registry first if it
// is not loaded yet.
func (r *Registry) Has(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	// A registry not loaded at startup yet is loaded now.
	if !r.loaded { // want "double lock"
		r.Load()
	}
	return r.names[name]
}

// Load loads the registry.
func (r *Registry) Load() {
	names := map[string]bool{"a": true}
	r.mu.Lock()
	r.names = names
	r.loaded = true
	r.mu.Unlock()
}
