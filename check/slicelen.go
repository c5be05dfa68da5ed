package check

import (
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/static/depend"
)

// sliceLens fills Event.Len from the replay's trace (rt) for the events
// of a variable that one of the pattern's plain reads loads for a
// predicate only through its length (lenTested: static/depend's
// LenTested): for each, the length the last write of the variable before
// it stored (trace.FlagLen; -1 when that write recorded none, or there
// is none), whether that write was another goroutine's, whether the
// event's goroutine read the variable after that write and before the
// event, and the positions of the event and of its own goroutine's last
// write of the variable before it. The trace is the replay's own, its events in the
// order they ran, each write recorded just before its store, so the last
// write before a read is the one it read. The trace is read only when
// the pattern has such a read (lenAlike).
func sliceLens(f *Finding, evs []depend.Event, lenTested func(site string) bool, rt *replayTrace) {
	s, _, _, ok := patternSpan(f, evs)
	if !ok {
		return
	}
	vars := map[int]bool{}
	for k := range evs {
		if evs[k].Read && !evs[k].Write && lenTested(evs[k].Site) {
			vars[evs[k].Var] = true
		}
	}
	if len(vars) == 0 {
		return
	}
	tr, pos := rt.get()
	if tr == nil {
		return
	}
	for k := range evs {
		if !vars[evs[k].Var] {
			continue
		}
		p := tracePos(s, pos, k)
		if p < 0 || p >= len(tr.Events) {
			continue
		}
		evs[k].Len = lenBefore(tr, p)
	}
}

// lenBefore is what tr shows before its event p of its variable
// (depend.SliceLen).
func lenBefore(tr *trace.Trace, p int) *depend.SliceLen {
	e := tr.Events[p]
	out := &depend.SliceLen{Len: -1, At: p, OwnAt: -1}
	last := true
	for q := p - 1; q >= 0; q-- {
		c := tr.Events[q]
		if c.Obj == e.Obj && last && c.G == e.G && c.Op == trace.Read {
			out.Fresh = true
		}
		if c.Obj != e.Obj || !writes(c.Op) {
			continue
		}
		if last {
			last = false
			if n, ok := trace.StoredLen(c); ok {
				out.Len = n
			}
			out.Other = c.G != e.G
		}
		if c.G == e.G {
			out.OwnAt = q
			break
		}
	}
	return out
}
