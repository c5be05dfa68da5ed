// Package drvacquire hands out resources acquired from a pool (puddle's
// shape): a Resource's methods panic unless it is acquired, so the zero
// value is no receiver; the tests get one from Pool.Acquire, with a
// constructor built by a helper of their own, and Release it.
package drvacquire

import "sync"

// Pool builds resources with its constructor and lends them out.
type Pool struct {
	mu   sync.Mutex
	ctor func() int
	idle []*Resource
}

// NewPool returns a pool building values with ctor.
func NewPool(ctor func() int) *Pool { return &Pool{ctor: ctor} }

// Acquire lends a resource, built afresh when none is idle.
func (p *Pool) Acquire() *Resource {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.idle); n > 0 {
		r := p.idle[n-1]
		p.idle = p.idle[:n-1]
		r.acquired = true
		return r
	}
	return &Resource{pool: p, value: p.ctor(), acquired: true}
}

// Resource is a value lent by a pool.
type Resource struct {
	mu       sync.Mutex
	pool     *Pool
	value    int
	acquired bool
	hijacked bool
	uses     int
}

// Value is the resource's value, also once hijacked.
func (r *Resource) Value() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.acquired && !r.hijacked {
		panic("drvacquire: resource not acquired")
	}
	return r.value
}

// Use counts one use. (The count is not locked: two Uses lose one.)
func (r *Resource) Use() {
	r.mu.Lock()
	ok := r.acquired
	r.mu.Unlock()
	if !ok {
		panic("drvacquire: resource not acquired")
	}
	r.uses++
}

// Uses is how many times the resource was used.
func (r *Resource) Uses() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.uses
}

// Release returns the resource to its pool.
func (r *Resource) Release() {
	r.mu.Lock()
	if !r.acquired {
		r.mu.Unlock()
		panic("drvacquire: resource not acquired")
	}
	r.acquired = false
	r.mu.Unlock()
	r.pool.mu.Lock()
	r.pool.idle = append(r.pool.idle, r)
	r.pool.mu.Unlock()
}

// Hijack takes the resource out of its pool for good: its Release then
// panics, and its cleanup in a driver must not count as the calls'.
func (r *Resource) Hijack() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.acquired {
		panic("drvacquire: resource not acquired")
	}
	r.acquired, r.hijacked = false, true
	r.uses = 0
}

// Reset forgets the uses, whatever the resource's state. (Not locked.)
func (r *Resource) Reset() { r.uses = 0 }
