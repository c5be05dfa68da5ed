package check

import (
	"os"

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
// wrote was a tentative value of an attempt no one committed. What the
// goroutine did is read from the replay's own trace (rv.Trace), which
// goes on past the schedule; without it, from the schedule's steps up to
// where the replay went free, which are the recorded run's. otter's
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
	ran := replayedSteps(rv.Trace)
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
				w := s.Anomaly[k]
				if w < 0 || w >= lim {
					return false
				}
				steps, at := s.Steps[:lim], w
				if ran != nil {
					steps, at = ran, occurrence(ran, s.Steps[w])
				}
				if !gaveUp(steps, at, isCAS) {
					return false
				}
				found = true
			}
		}
	}
	return found
}

// gaveUp reports whether steps[w] is a swap that its goroutine gave up
// (see abandoned).
func gaveUp(steps []trace.Step, w int, isCAS func(string) bool) bool {
	if w < 0 || w >= len(steps) {
		return false
	}
	ws := steps[w]
	if ws.Op != trace.AtomicRMW || !isCAS(ws.Site) {
		return false
	}
	failed := false
	for _, st := range steps[w+1:] {
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

// replayedSteps reads a replay's trace as steps (each event's goroutine,
// operation, object and site, N unset), or nil.
func replayedSteps(path string) []trace.Step {
	if path == "" {
		return nil
	}
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	tr, err := trace.ReadFile(path, trace.ReadOptions{Lenient: true})
	if err != nil || len(tr.Events) == 0 {
		return nil
	}
	name := func(tab []string, i int32) string {
		if i < 0 || int(i) >= len(tab) {
			return ""
		}
		return tab[i]
	}
	out := make([]trace.Step, len(tr.Events))
	for i, e := range tr.Events {
		out[i] = trace.Step{G: name(tr.Goroutines, e.G), Op: e.Op, Site: name(tr.Sites, e.Site)}
		if e.Op.IsAccess() {
			out[i].Obj = name(tr.Objects, e.Obj)
		}
	}
	return out
}

// occurrence is the index in steps of step st's occurrence: the st.N-th
// step of its goroutine with its operation and site, or -1.
func occurrence(steps []trace.Step, st trace.Step) int {
	n := 0
	for i, x := range steps {
		if x.G == st.G && x.Op == st.Op && x.Site == st.Site {
			n++
			if n == st.N {
				return i
			}
		}
	}
	return -1
}
