package registry

import (
	"sync"
	"sync/atomic"
)

// Registry keeps one service per name and counts the registrations.
type Registry struct {
	services sync.Map // name → service
	n        atomic.Int64
}

// Register adds the service under name, unless the name is taken; the
// first registration wins.
func (r *Registry) Register(name string, svc any) {
	if _, ok := r.services.Load(name); !ok { // want "atomicity violation on Registry\\.services"
		r.services.Store(name, svc)
		r.n.Add(1)
	}
}

// Registered returns how many names were registered.
func (r *Registry) Registered() int64 { return r.n.Load() }
