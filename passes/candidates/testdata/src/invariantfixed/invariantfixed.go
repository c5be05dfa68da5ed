// Package invariantfixed is invariant with each method one critical
// section (Get under a read lock).
package invariantfixed

import "sync"

type Range struct {
	mu     sync.RWMutex
	lo, hi int
}

func (r *Range) Set(lo, hi int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lo = lo
	r.hi = hi
}

func (r *Range) Get() (lo, hi int) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.lo, r.hi
}

func (r *Range) Width() int {
	r.mu.RLock()
	w := r.hi - r.lo
	r.mu.RUnlock()
	return w
}
