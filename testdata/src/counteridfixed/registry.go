package counteridfixed

import (
	"sync"
	"sync/atomic"
)

// Registry hands out ids and counts registrations.
type Registry struct {
	next  atomic.Int64 // the last id handed out
	added atomic.Int64 // registrations, for the gauge
	mu    sync.Mutex
	names map[int64]string
	gauge Gauge
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{names: map[int64]string{}} }

// Register gives name a new id, files it under the id and returns it.
func (r *Registry) Register(name string) int64 {
	id := r.next.Add(1) // the add's own result: each caller's own id
	r.mu.Lock()
	r.names[id] = name
	r.mu.Unlock()
	r.record()
	return id
}

// record counts a registration and exports the total.
func (r *Registry) record() {
	r.added.Add(1)
	r.gauge.Set(r.added.Load())
}

// Name returns the name filed under id.
func (r *Registry) Name(id int64) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.names[id]
}

// Gauge is an exported metric: the last value set.
type Gauge struct {
	mu sync.Mutex
	v  int64
}

// Set sets the gauge.
func (g *Gauge) Set(v int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.v = v
}

// Value returns the gauge's value.
func (g *Gauge) Value() int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.v
}
