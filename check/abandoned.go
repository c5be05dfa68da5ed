package check

import (
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/replay"
	"github.com/pecanvet/pecanvet/static/depend"
)

// abandoned reports whether a lost write (v: the unit reads a variable,
// uses it, and overwrites it; another goroutine wrote it in between) lost
// only writes that their goroutines gave up in the replayed schedule s:
// each is a compare-and-swap that swapped, after which its goroutine,
// writing nothing else, failed a compare-and-swap (recorded as a load at
// a CAS site) and then read the variable again. That goroutine's attempt
// failed and it started over, reading what the unit stored, as it would
// have had its swap come after the unit's write and failed: what it
// wrote was a tentative value of an attempt no one committed. otter's
// MPSC (JCTools' MpscGrowableArrayQueue): a producer CASes a fresh
// producer limit, then fails to CAS the producer index, which a resizer
// has made odd, and loads the limit again at the top of its loop; the
// resizer's store of the limit for the new buffer, which overwrote it,
// is meant to ("Invalidate racing CASs"). A write its goroutine goes on
// from (a counter's increment that broke out of its CAS loop, a reset
// whose goroutine moves on) stays lost. Only the steps the replay ran as
// scheduled count: up to where it went free (lim, from the verdict).
func abandoned(s *trace.Schedule, evs []depend.Event, v depend.Verdict, rv replay.Verdict, isCAS func(site string) bool) bool {
	if !v.Holds || v.Kind != "lost write" || s == nil || len(s.Anomaly) != len(evs) {
		return false
	}
	lim := len(s.Steps)
	if rv.Explored || rv.Interrupted {
		lim = min(lim, rv.Step-1)
	}
	same := func(i, k int) bool { return evs[i].Thread == evs[k].Thread && evs[i].Unit == evs[k].Unit }
	found := false
	for i := range evs {
		if !evs[i].Read || evs[i].Site != v.Pair[0] {
			continue
		}
		for j := i + 1; j < len(evs); j++ {
			if !same(i, j) || !evs[j].Write || evs[j].Site != v.Pair[1] {
				continue
			}
			for k := i + 1; k < j; k++ {
				if same(i, k) || !evs[k].Write || evs[k].Var != evs[i].Var {
					continue
				}
				if !gaveUp(s, s.Anomaly[k], lim, isCAS) {
					return false
				}
				found = true
			}
		}
	}
	return found
}

// gaveUp reports whether step w of schedule s is a swap that its
// goroutine gave up, within the first lim steps (see abandoned).
func gaveUp(s *trace.Schedule, w, lim int, isCAS func(string) bool) bool {
	if w < 0 || w >= lim {
		return false
	}
	ws := s.Steps[w]
	if ws.Op != trace.AtomicRMW || !isCAS(ws.Site) {
		return false
	}
	failed := false
	for i := w + 1; i < lim; i++ {
		st := s.Steps[i]
		if st.G != ws.G {
			continue
		}
		switch {
		case st.Op.Writes():
			return false
		case st.Op == trace.AtomicLoad && isCAS(st.Site):
			failed = true
			if st.Obj == ws.Obj {
				return true // its swap of the variable itself failed
			}
		case st.Op.Reads() && st.Obj == ws.Obj && failed:
			return true
		}
	}
	return false
}
