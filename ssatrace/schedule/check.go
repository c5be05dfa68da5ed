package schedule

import (
	"fmt"

	"github.com/pecanvet/pecanvet/ssatrace/ptg"
	"github.com/pecanvet/pecanvet/ssatrace/trace"
)

// Check verifies that sched is feasible for the PTG — each goroutine runs a
// prefix of its program order, every POR source runs before its target, no
// lock is held by two goroutines at once (read locks shared) — and that it
// realizes the pattern instance p (in order; back to back if adjacent).
// It is the safety net between Generate and a report.
func Check(gr *ptg.Graph, sched []int32, p []int32, adjacent bool) error {
	evs := gr.Tr.Events
	pos := make([]int32, gr.NG)
	at := make(map[int32]int, len(p))
	for _, e := range p {
		at[e] = -1
	}
	owner := map[int32]int32{}
	readers := map[int32]map[int32]int{}
	done := func(e int32) bool { return gr.Local[e] < pos[evs[e].G] }
	for i, e := range sched {
		if e < 0 || int(e) >= len(evs) {
			return fmt.Errorf("step %d: no event %d", i+1, e+1)
		}
		ev := evs[e]
		if gr.Local[e] != pos[ev.G] {
			return fmt.Errorf("step %d: event %d out of program order", i+1, e+1)
		}
		for _, src := range gr.Srcs[e] {
			if !done(src) {
				return fmt.Errorf("step %d: event %d runs before event %d, which happens before it", i+1, e+1, src+1)
			}
		}
		switch ev.Op {
		case trace.Lock, trace.RLock:
			if o, ok := owner[ev.Obj]; ok && o != ev.G {
				return fmt.Errorf("step %d: event %d acquires %s held by %s", i+1, e+1, gr.Tr.Objects[ev.Obj], gr.Tr.Goroutines[o])
			}
			if ev.Op == trace.Lock {
				for r := range readers[ev.Obj] {
					if r != ev.G {
						return fmt.Errorf("step %d: event %d write-locks %s read-held by %s", i+1, e+1, gr.Tr.Objects[ev.Obj], gr.Tr.Goroutines[r])
					}
				}
				owner[ev.Obj] = ev.G
			} else {
				if readers[ev.Obj] == nil {
					readers[ev.Obj] = map[int32]int{}
				}
				readers[ev.Obj][ev.G]++
			}
		case trace.Unlock:
			if owner[ev.Obj] == ev.G {
				delete(owner, ev.Obj)
			}
		case trace.RUnlock:
			if r := readers[ev.Obj]; r != nil {
				if r[ev.G]--; r[ev.G] <= 0 {
					delete(r, ev.G)
				}
			}
		}
		pos[ev.G]++
		if _, ok := at[e]; ok {
			at[e] = i
		}
	}
	prev := -1
	for k, e := range p {
		i := at[e]
		if i < 0 {
			return fmt.Errorf("pattern event %d (event %d) does not run", k+1, e+1)
		}
		if i <= prev || adjacent && k > 0 && i != prev+1 {
			return fmt.Errorf("pattern event %d (event %d) out of place", k+1, e+1)
		}
		prev = i
	}
	return nil
}
