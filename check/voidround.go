package check

import (
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/static/depend"
)

// voidRounds fills Event.Void from the replay's own trace, for the reads
// on a loop whose rounds VoidLoad (load) accepts (in: depend's
// InVoidLoop, so that the trace is read only for those): going back
// from the read over its goroutine's reads alone, to a load L at a site
// load accepts, the goroutine's steps from L on are all reads (a failed
// CAS is one), sleeps and regions it opens and closes, until its next
// load at L's site, of L's object, in L's activation, which comes after
// the read. That round, the read's, changed nothing any goroutine sees
// and left its own where it was: lockfree's Enqueue with a stale tail
// whose link CAS, or helping swing, failed (queue.go:43 asv and :46
// asv, issue 26). A round whose CAS swapped, or that wrote, locked or
// left the activation, is no void one.
func voidRounds(f *Finding, evs []depend.Event, load, in func(site string) bool, rt *replayTrace) {
	s := f.Schedule
	if s == nil || len(s.Anomaly) != len(evs) || f.Verdict.Trace == "" {
		return
	}
	var todo []int
	for i := range evs {
		if evs[i].Read && !evs[i].Write && s.Anomaly[i] < len(s.Steps) && in(evs[i].Site) {
			todo = append(todo, i)
		}
	}
	if len(todo) == 0 {
		return
	}
	tr, pos := rt.get()
	if tr == nil || len(pos) != len(s.Steps) {
		return
	}
	known := map[string]bool{}
	loads := func(site string) bool {
		v, ok := known[site]
		if !ok {
			v = load(site)
			known[site] = v
		}
		return v
	}
	for _, i := range todo {
		p := pos[s.Anomaly[i]]
		if p < 0 {
			continue
		}
		evs[i].Void = inVoidRound(tr, p, loads)
	}
}

// inVoidRound reports whether tr's event p lies in a void round of its
// goroutine (see voidRounds).
func inVoidRound(tr *trace.Trace, p int, load func(site string) bool) bool {
	g := tr.Events[p].G
	depth, seen := 0, 0
	for c := p; c >= 0 && seen < 256; c-- {
		e := tr.Events[c]
		if e.G != g {
			continue
		}
		seen++
		switch e.Op {
		case trace.Read, trace.AtomicLoad:
		case trace.RegionEnd:
			depth++
			continue
		case trace.RegionBegin:
			if depth--; depth < 0 {
				return false // p's activation began here
			}
			continue
		default:
			return false
		}
		if depth == 0 && load(tabName(tr.Sites, e.Site)) {
			if end := roundEnd(tr, c); end > p {
				return true
			}
		}
	}
	return false
}

// roundEnd returns the event of the next load of tr's event l's goroutine
// at l's site, of l's object, in l's activation, when from l to there
// the goroutine only read, slept, and opened and closed regions; -1 if
// none.
func roundEnd(tr *trace.Trace, l int) int {
	e := tr.Events[l]
	depth := 0
	for q := l + 1; q < len(tr.Events); q++ {
		n := tr.Events[q]
		if n.G != e.G {
			continue
		}
		switch n.Op {
		case trace.Read, trace.AtomicLoad:
			if depth == 0 && n.Op == e.Op && n.Site == e.Site && n.Obj == e.Obj {
				return q
			}
		case trace.Sleep:
		case trace.RegionBegin:
			depth++
		case trace.RegionEnd:
			if depth--; depth < 0 {
				return -1 // left l's activation
			}
		default:
			return -1
		}
	}
	return -1
}
