package check

import (
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/static/depend"
)

// spares fills Event.Spares from the replay's trace (rt): for a plain
// write of one map element (its key recorded, non-zero), every write of
// the same map by another goroutine in the trace from the pattern's
// first step up to it wrote one element, and at its element either none
// did, or the last of them was a delete (deletes, by site) after which
// the write's own goroutine wrote the element before this write. The
// trace is the replay's own, whose events are in the order they ran
// (goroutines the schedule lets run free included), and its keys are
// hashed by one process: equal keys have equal hashes, and a write
// recorded without a key counts as one of every element.
func spares(f *Finding, evs []depend.Event, deletes func(site string) bool, rt *replayTrace) {
	s, first, _, ok := patternSpan(f, evs)
	if !ok {
		return
	}
	for i := range evs {
		at := s.Anomaly[i]
		if !evs[i].Write || evs[i].Read || s.Steps[at].Op != trace.Write {
			continue
		}
		tr, pos := rt.get()
		if tr == nil || at >= len(pos) || first >= len(pos) || pos[at] < 0 || pos[first] < 0 || pos[first] > pos[at] {
			return
		}
		evs[i].Spares = sparesAt(tr, pos[first], pos[at], deletes)
	}
}

// sparesAt is Event.Spares for the write at tr.Events[to], from event
// from on.
func sparesAt(tr *trace.Trace, from, to int, deletes func(site string) bool) bool {
	b := tr.Events[to]
	if !b.Op.HasKey() || b.Arg == 0 {
		return false
	}
	others, lastDeleted, ownAfter := false, false, false
	for _, c := range tr.Events[from:to] {
		if c.Obj != b.Obj || !writes(c.Op) {
			continue
		}
		if c.G == b.G {
			ownAfter = ownAfter || c.Op == trace.Write && c.Arg == b.Arg
			continue
		}
		if c.Op != trace.Write || c.Arg == 0 {
			return false // a whole-map write: every element's
		}
		if c.Arg == b.Arg {
			others, ownAfter = true, false
			lastDeleted = deletes(tabName(tr.Sites, c.Site))
		}
	}
	return !others || lastDeleted && ownAfter
}
