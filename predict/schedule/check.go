package schedule

import (
	"fmt"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/predict/ptg"
)

// Check verifies that sched is feasible for the PTG — each goroutine runs a
// prefix of its program order, every POR source runs before its target, no
// lock is held by two goroutines at once (read locks shared) — and that it
// realizes the pattern instance p (in order; back to back if adjacent). The
// prefix, being the recorded trace, is taken as feasible; the tail is
// checked step by step. It is the safety net between Generate and a report.
func Check(gr *ptg.Graph, sched Schedule, p []int32, adjacent bool) error {
	st := newState(gr)
	return check(&st, gr, sched, p, adjacent)
}

// Check is Check on g's PTG. It reuses g's scratch state, which saves a
// pass over the trace per call.
func (g *Generator) Check(sched Schedule, p []int32, adjacent bool) error {
	return check(&g.st, g.gr, sched, p, adjacent)
}

func check(st *state, gr *ptg.Graph, sched Schedule, p []int32, adjacent bool) error {
	evs := gr.Tr.Events
	if sched.Prefix < 0 || int(sched.Prefix) > len(evs) {
		return fmt.Errorf("prefix of %d events out of range", sched.Prefix)
	}
	st.reset(sched.Prefix)
	at := make(map[int32]int, len(p))
	for _, e := range p {
		at[e] = -1
		if e < sched.Prefix {
			return fmt.Errorf("pattern event %d is in the unchanged prefix", e+1)
		}
	}
	for i, e := range sched.Tail {
		step := int(sched.Prefix) + i + 1
		if e < 0 || int(e) >= len(evs) {
			return fmt.Errorf("step %d: no event %d", step, e+1)
		}
		ev := evs[e]
		if gr.Local[e] != st.pos[ev.G] {
			return fmt.Errorf("step %d: event %d out of program order", step, e+1)
		}
		for _, src := range gr.Sources(e) {
			if !st.executed(src) {
				return fmt.Errorf("step %d: event %d runs before event %d, which happens before it", step, e+1, src+1)
			}
		}
		acq := e
		if r := st.reacquire(e); r >= 0 {
			acq = r // Wait returns holding the lock
		}
		if op := evs[acq].Op; op == trace.Lock || op == trace.RLock {
			if b := st.blocker(acq); b >= 0 {
				return fmt.Errorf("step %d: event %d acquires %s held by %s", step, e+1, gr.Tr.Objects[evs[acq].Obj], gr.Tr.Goroutines[b])
			}
		}
		st.step(e)
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
	if len(sched.Tail) == 0 || sched.Tail[len(sched.Tail)-1] != p[len(p)-1] {
		return fmt.Errorf("schedule does not end with the anomaly's last event")
	}
	return nil
}
