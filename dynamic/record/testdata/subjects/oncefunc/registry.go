package oncefunc

import "sync"

// Registry loads its table lazily, once.
type Registry struct {
	table map[string]int
	load  func()
}

// New returns a registry whose table src builds.
func New(src func() map[string]int) *Registry {
	r := &Registry{}
	r.load = sync.OnceFunc(func() {
		r.table = src() // want "data race on Registry\\.table"
	})
	return r
}

// Lookup returns the value of k.
func (r *Registry) Lookup(k string) int {
	r.load()
	return r.table[k]
}

// Size returns the number of entries.
func (r *Registry) Size() int {
	return len(r.table)
}
