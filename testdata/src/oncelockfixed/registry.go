package oncelockfixed

import "sync"

// Registry maps names to values; its defaults are copied from the names
// registered so far, once, on first use.
type Registry struct {
	mu       sync.Mutex
	names    map[string]int
	once     sync.Once
	defaults map[string]int
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{names: map[string]int{}, defaults: map[string]int{}}
}

func (r *Registry) init() {
	r.once.Do(func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		for k, v := range r.names {
			r.defaults[k] = v
		}
	})
}

// Default returns the default of name.
func (r *Registry) Default(name string) int {
	r.init()
	return r.defaults[name]
}

// Register makes sure the defaults were taken, then sets name's value
// holding the registry's lock: init, whose function takes that lock, is
// not called under it.
func (r *Registry) Register(name string, v int) {
	r.init()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.names[name] = v
}

// Value returns name's value.
func (r *Registry) Value(name string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.names[name]
}
