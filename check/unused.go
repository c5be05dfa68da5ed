package check

import (
	"slices"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/static/depend"
)

// unusedReads fills Event.Unused from the replay's trace (rt) for a
// plain read between two plain writes of its variable by another unit
// (the intermediate state of a WRW), when sinks (depend's UnusedSinks)
// says its value reaches only stores at the sites it gives (and the
// locations a branch on the value may store into, each named by the
// sites of its accesses before the branch): every write of the reader's
// goroutine at those sites, from the read until that goroutine reads at
// the read's site again in the same activation (region depth), leaves
// its activation, or ends, is dead (deadFrom), and every store whose
// address the value computes is among them (Sinks.Must: it ran, so its
// address did not panic); so is each decided location, its object the
// one the reader's goroutine last accessed at one of its sites in the
// read's activation up to the read, from the read on (whichever way the
// branch went). The trace is the replay's own, one process's, in the order
// its events ran, the goroutines let run free after the schedule
// included (goresilience's window slider: its tick between two resets
// writes a bucket into the first reset's window and wraps the index,
// and the second reset replaces both before anyone reads them).
func unusedReads(f *Finding, evs []depend.Event, sinks func(site string) (depend.Sinks, bool), rt *replayTrace) {
	s, _, _, ok := patternSpan(f, evs)
	if !ok {
		return
	}
	plainWrite := func(k int) bool { return evs[k].Write && !evs[k].Read }
	for r := range evs {
		if !evs[r].Read || evs[r].Write {
			continue
		}
		before, after := -1, -1
		for k := range evs {
			if !plainWrite(k) || evs[k].Var != evs[r].Var || evs[k].Unit == evs[r].Unit && evs[k].Thread == evs[r].Thread {
				continue
			}
			if k < r {
				before = k
			} else if k > r && after < 0 {
				after = k
			}
		}
		if before < 0 || after < 0 {
			continue
		}
		sk, ok := sinks(evs[r].Site)
		if !ok {
			continue
		}
		tr, pos := rt.get()
		if tr == nil {
			return
		}
		pr, pb := tracePos(s, pos, r), tracePos(s, pos, after)
		if pr < 0 || pb <= pr || pb >= len(tr.Events) || tr.Events[pr].Op != trace.Read {
			continue
		}
		evs[r].Unused = unusedAt(tr, pr, pb, sk)
	}
}

// unusedAt reports whether the stores that tr's read at pr can reach
// (its goroutine's writes at sk's sites, up to its next read at the
// read's site in the same activation, the activation's end or the
// goroutine's) are all dead, each of sk.Must among them, and each
// decided location from pr; pb is the unit's
// later write, whose goroutine must end in the trace for a store never
// accessed again to count as dead.
func unusedAt(tr *trace.Trace, pr, pb int, sk depend.Sinks) bool {
	e := tr.Events[pr]
	ug := tr.Events[pb].G
	tail := func() bool {
		if tr.Truncated != "" {
			return false
		}
		for _, c := range tr.Events[pb+1:] {
			if c.G == ug && c.Op == trace.End {
				return true
			}
		}
		return false
	}
	for _, loc := range sk.Decided {
		k := lastAt(tr, pr, loc)
		if k < 0 || !deadFrom(tr, pr, tr.Events[k], tail) {
			return false
		}
	}
	ran := make([]bool, len(sk.Must))
	done := func() bool {
		for _, r := range ran {
			if !r {
				return false
			}
		}
		return true
	}
	depth := 0
	for k := pr + 1; k < len(tr.Events); k++ {
		c := tr.Events[k]
		if c.G != e.G {
			continue
		}
		switch c.Op {
		case trace.End:
			return done()
		case trace.RegionBegin:
			depth++
		case trace.RegionEnd:
			if depth--; depth < 0 {
				return done()
			}
		case trace.Read:
			if depth == 0 && c.Site == e.Site {
				return done()
			}
		case trace.Write, trace.AtomicStore, trace.AtomicRMW:
			if depth > 0 || !slices.Contains(sk.Sites, tr.Site(c)) {
				continue
			}
			if !deadFrom(tr, k, c, tail) {
				return false
			}
			for i, m := range sk.Must {
				if slices.Contains(m, tr.Site(c)) {
					ran[i] = true
				}
			}
		}
	}
	return done()
}

// lastAt returns the position of the last memory access of the goroutine
// of tr's event pr at one of sites, from pr back to the start of pr's
// activation (region depth), or -1.
func lastAt(tr *trace.Trace, pr int, sites []string) int {
	g := tr.Events[pr].G
	depth := 0
	for k := pr; k >= 0; k-- {
		c := tr.Events[k]
		if c.G != g {
			continue
		}
		switch {
		case c.Op == trace.RegionEnd:
			depth++
		case c.Op == trace.RegionBegin:
			if depth--; depth < 0 {
				return -1
			}
		case depth == 0 && memoryOp(c.Op) && slices.Contains(sites, tr.Site(c)):
			return k
		}
	}
	return -1
}

// deadFrom reports whether the location of event w (its object, at its
// key when recorded) is read by no one after position k: its next access
// there is a plain write of that element, or there is none and tail
// holds (the run ended normally and went on past the unit). A write of
// another key passes by; a read, an atomic access, a write of the whole
// map or of another key when w's has none ends it as used.
func deadFrom(tr *trace.Trace, k int, w trace.Event, tail func() bool) bool {
	for _, c := range tr.Events[k+1:] {
		if c.Obj != w.Obj || !memoryOp(c.Op) {
			continue
		}
		if c.Arg != w.Arg && c.Arg != 0 && w.Arg != 0 {
			continue // another key of one map
		}
		return c.Op == trace.Write && c.Arg == w.Arg
	}
	return tail()
}

// memoryOp reports whether op accesses memory (its Obj an object, not a
// goroutine).
func memoryOp(op trace.Op) bool {
	switch op {
	case trace.Read, trace.Write, trace.AtomicLoad, trace.AtomicStore, trace.AtomicRMW:
		return true
	}
	return false
}
