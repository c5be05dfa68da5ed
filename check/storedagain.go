package check

import (
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/static/depend"
)

// storedAgain fills Event.Again from the replay's trace (rt): for a plain
// read of one map element (its key recorded, non-zero), the pairs (i, j)
// of the pattern's plain writes around it, i before the read and j after,
// that the trace shows writing the read's element (the read's key) with
// one value (trace.StoredAlike: one identity, the stored bits), while no
// event from i to j wrote that key or the whole map: every write of the
// map between is at another key. The trace is the replay's own, one
// process's, in the order its events ran (goroutines the schedule let
// run free included): equal keys have equal hashes, and one identity is
// one value there. The trace is read only when the pattern has such a
// read between two such writes of its variable.
func storedAgain(f *Finding, evs []depend.Event, rt *replayTrace) {
	s, _, _, ok := patternSpan(f, evs)
	if !ok {
		return
	}
	plainWrite := func(k int) bool { return evs[k].Write && !evs[k].Read && evs[k].Key != 0 }
	var todo []int
	for r := range evs {
		if !evs[r].Read || evs[r].Write || evs[r].Key == 0 {
			continue
		}
		n := 0
		for k := range evs {
			if plainWrite(k) && evs[k].Var == evs[r].Var {
				n++
			}
		}
		if n >= 2 {
			todo = append(todo, r)
		}
	}
	if len(todo) == 0 {
		return
	}
	tr, pos := rt.get()
	if tr == nil {
		return
	}
	for _, r := range todo {
		pr := tracePos(s, pos, r)
		if pr < 0 || tr.Events[pr].Op != trace.Read {
			continue
		}
		for i := range evs {
			pi := tracePos(s, pos, i)
			if !plainWrite(i) || evs[i].Var != evs[r].Var || pi < 0 || pi >= pr {
				continue
			}
			for j := range evs {
				pj := tracePos(s, pos, j)
				if !plainWrite(j) || evs[j].Var != evs[r].Var || pj <= pr {
					continue
				}
				if storedAgainAt(tr, pi, pr, pj) {
					evs[r].Again = append(evs[r].Again, [2]int{i, j})
				}
			}
		}
	}
}

// storedAgainAt reports whether tr's events a < r < b are: a and b plain
// writes of one map element with one value identity (StoredAlike), r a
// read of that map at the same key, and every write of the map from a
// to b other than them one at another key.
func storedAgainAt(tr *trace.Trace, a, r, b int) bool {
	ea, er, eb := tr.Events[a], tr.Events[r], tr.Events[b]
	if !trace.StoredAlike(ea, eb) || er.Op != trace.Read || er.Obj != ea.Obj || er.Arg != ea.Arg {
		return false
	}
	for _, c := range tr.Events[a+1 : b] {
		if c.Obj != ea.Obj || !writes(c.Op) {
			continue
		}
		if c.Op != trace.Write || c.Arg == 0 || c.Arg == ea.Arg {
			return false // the whole map, or the element (a store, a delete)
		}
	}
	return true
}
