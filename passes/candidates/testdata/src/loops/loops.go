// Package loops locks inside a loop: each element is its own critical
// section, but the method call is one unit of work, so another call can
// interleave between two elements. (WWR and RWW spanning two iterations
// are missed: the static critical-section identity is the acquiring
// instruction, so the end of one iteration and the start of the next look
// like one critical section; see the package documentation.)
package loops

import "sync"

type Acc struct {
	mu    sync.Mutex
	total int
}

func (a *Acc) AddEach(xs []int) {
	for _, x := range xs {
		a.mu.Lock()
		a.total += x // want `^candidate av RWR: loops.go:19:5 loops.go:19:5 loops.go:19:5$` `^candidate av WRW: loops.go:19:5 loops.go:19:5 loops.go:19:5$` `^candidate av WWW: loops.go:19:5 loops.go:19:5 loops.go:19:5$` `^candidate av RWR: loops.go:19:5 loops.go:26:4 loops.go:19:5$` `^candidate av WWW: loops.go:19:5 loops.go:26:4 loops.go:19:5$`
		a.mu.Unlock()
	}
}

func (a *Acc) Reset() {
	a.mu.Lock()
	a.total = 0
	a.mu.Unlock()
}
