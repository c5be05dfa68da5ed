package getorsetfixed

import "sync"

// Registry maps names to values.
type Registry struct {
	mu sync.Mutex
	m  map[string]int
}

// New returns an empty registry.
func New() *Registry { return &Registry{m: map[string]int{}} }

// lookup returns the value of k, if any.
func (r *Registry) lookup(k string) (int, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	v, ok := r.m[k]
	return v, ok
}

// insert sets k to v.
func (r *Registry) insert(k string, v int) {
	r.mu.Lock()
	r.m[k] = v
	r.mu.Unlock()
}

// Get returns the value of k, setting it to its length if it has none.
func (r *Registry) Get(k string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if v, ok := r.m[k]; ok {
		return v
	}
	r.m[k] = len(k)
	return len(k)
}

// Set sets k to v.
func (r *Registry) Set(k string, v int) { r.insert(k, v) }

// Has reports, for each key, whether it is set.
func (r *Registry) Has(keys []string, found []bool) {
	for i, k := range keys {
		_, found[i] = r.lookup(k)
	}
}
