// Package invariant keeps lo <= hi, but updates and reads the two fields in
// separate critical sections: atomic-set serializability violations.
package invariant

import "sync"

type Range struct {
	mu     sync.Mutex
	lo, hi int
}

func (r *Range) Set(lo, hi int) {
	r.mu.Lock()
	r.lo = lo // want `^candidate asv asv-6: invariant.go:14:4 invariant.go:14:4 invariant.go:17:4 invariant.go:17:4$` `^candidate asv asv-9: invariant.go:14:4 invariant.go:23:9 invariant.go:26:9 invariant.go:17:4$`
	r.mu.Unlock()
	r.mu.Lock()
	r.hi = hi
	r.mu.Unlock()
}

func (r *Range) Get() (lo, hi int) {
	r.mu.Lock()
	lo = r.lo // want `^candidate asv asv-11: invariant.go:23:9 invariant.go:14:4 invariant.go:17:4 invariant.go:26:9$`
	r.mu.Unlock()
	r.mu.Lock()
	hi = r.hi
	r.mu.Unlock()
	return lo, hi
}
