package check

import (
	"slices"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/static/depend"
)

// Caps on what witnesses gathers from a replay's trace: the steps of a
// path kept for telling a branch (depend's branchTaken stops at the
// first step past the test), and the earlier reads kept as witnesses,
// nearest the unit's write first.
const (
	witnessPath = 64
	witnessMax  = 32
)

// witnesses fills Event.Bound, Event.BoundAfter and Event.Witnesses from
// the replay's own trace, for the read-backs whose writes between, in
// the schedule, are all atomic adds of a constant (delta): the unit's
// goroutine, after the read-back, does only region ends and then a plain
// read of another object (the bound it compares the value with: the
// read-back is the schedule's last step, so the branch it took is only
// in the replay's trace), and earlier reads at the read-back's site of
// the same variable, each followed in its goroutine by the same region
// ends and a read of the same bound object at the same site, with no
// write of that object between that read and the unit's, are its
// witnesses: what each read differs from the unit's own value by is
// counted from the trace's writes of the variable between it and the
// unit's write, all atomic adds of a constant (static/depend's
// witnessKept). golang-queue's schedule reads the busy count back after
// a worker's decrement and compares it with workerCount; the start
// loop's earlier schedules are its witnesses.
func witnesses(f *Finding, evs []depend.Event, delta func(site string) (int64, bool), rt *replayTrace) {
	s := f.Schedule
	if s == nil || len(s.Anomaly) != len(evs) || f.Verdict.Trace == "" {
		return
	}
	pairs := addReadBacks(s, evs, delta)
	if len(pairs) == 0 {
		return
	}
	// A truncated trace will do (the replay's process killed once the
	// schedule was done, as golang-queue's often is): the lenient reader
	// gives its complete events, a prefix of the run in order, and the
	// rule reads only events up to the unit's read of the bound and the
	// path after it, which a cut only shortens (no branch told, no
	// witness kept).
	tr, pos := rt.get()
	if tr == nil {
		return
	}
	for _, p := range pairs {
		i, j := p[0], p[1]
		if s.Anomaly[i] >= len(pos) || s.Anomaly[j] >= len(pos) {
			continue
		}
		pa, pb := pos[s.Anomaly[i]], pos[s.Anomaly[j]]
		if pa < 0 || pb <= pa {
			continue
		}
		bound, after, ws, ok := witnessesOf(tr, pa, pb, delta)
		if !ok {
			continue
		}
		if evs[j].Bound != "" && evs[j].Bound != bound {
			continue
		}
		evs[j].Bound, evs[j].BoundAfter = bound, after
		for _, w := range ws {
			w.Of = i
			evs[j].Witnesses = append(evs[j].Witnesses, w)
		}
	}
}

// boundRead follows goroutine g from event k (a read): only region ends
// up to a plain read of another object than k's. It returns that read
// and the sites of the region ends, or -1.
func boundRead(evs []trace.Event, k int) (int, []int32) {
	g, obj := evs[k].G, evs[k].Obj
	var ends []int32
	for n := k + 1; n < len(evs); n++ {
		e := evs[n]
		switch {
		case e.G != g:
		case e.Op == trace.RegionEnd:
			ends = append(ends, e.Site)
		case e.Op == trace.Read && e.Obj >= 0 && e.Obj != obj:
			return n, ends
		default:
			return -1, nil
		}
	}
	return -1, nil
}

// pathAfter is the sites of goroutine g's events after event k, at most
// witnessPath of them.
func pathAfter(tr *trace.Trace, k int) []string {
	g := tr.Events[k].G
	var out []string
	for n := k + 1; n < len(tr.Events) && len(out) < witnessPath; n++ {
		if e := tr.Events[n]; e.G == g {
			if s := tabName(tr.Sites, e.Site); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// witnessesOf gathers, for the read-back at event pb of the variable its
// goroutine wrote at pa, the site of the bound read that follows it, the
// unit's path after that read, and the witnesses (Of left 0). ok is false
// when no bound read follows the read-back, or a write of the variable
// between pa and pb is no atomic add of a constant.
func witnessesOf(tr *trace.Trace, pa, pb int, delta func(string) (int64, bool)) (bound string, after []string, ws []depend.Witness, ok bool) {
	evs := tr.Events
	u, obj, site := evs[pb].G, evs[pb].Obj, evs[pb].Site
	lb, ends := boundRead(evs, pb)
	if lb < 0 {
		return "", nil, nil, false
	}
	bobj, bsite := evs[lb].Obj, evs[lb].Site
	add := func(e trace.Event) (int64, bool) {
		if e.Op != trace.AtomicRMW || e.Flags&trace.FlagAdd == 0 {
			return 0, false
		}
		return delta(tabName(tr.Sites, e.Site))
	}
	// The unit's own value: its write at pa, and its own adds up to pb.
	var own int64
	for k := pa + 1; k < pb; k++ {
		if e := evs[k]; e.Obj == obj && e.G == u && writes(e.Op) {
			d, ok := add(e)
			if !ok {
				return "", nil, nil, false
			}
			own += d
		}
	}
	// The last write of the bound's object before the unit's read of it:
	// a witness must read the bound after it (and before the unit), so
	// both read one value of it.
	lastB := -1
	for k := 0; k < lb; k++ {
		if e := evs[k]; e.Obj == bobj && writes(e.Op) {
			lastB = k
		}
	}
	// Back from pa: sum holds the adds of the variable in (k, pa], and
	// the walk stops at a write that is none.
	sum := own
	for k := pa; k >= 0 && len(ws) < witnessMax; k-- {
		e := evs[k]
		if e.Obj != obj {
			continue
		}
		if writes(e.Op) {
			d, ok := add(e)
			if !ok {
				break
			}
			sum += d
			continue
		}
		if e.Site != site || e.Op != trace.AtomicLoad && e.Op != trace.Read {
			continue
		}
		lw, wends := boundRead(evs, k)
		if lw < 0 || lw <= lastB || lw >= lb || evs[lw].Obj != bobj || evs[lw].Site != bsite || !slices.Equal(wends, ends) {
			continue
		}
		ws = append(ws, depend.Witness{Delta: sum, After: pathAfter(tr, lw)})
	}
	return tabName(tr.Sites, bsite), pathAfter(tr, lb), ws, true
}
