package check

import (
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/static/depend"
)

// lenAheads fills Event.Ahead (static/depend's lenAhead) from the replay's
// trace (rt) for each of the pattern's plain reads a that sliceLens gave
// a length (a predicate's length-only load, LenTested): for each later
// event b of a's unit with another unit's event between them in the
// pattern, when the trace shows that every other goroutine's step from
// the start of a's critical section to b can run before it (aheadLen),
// the length the last of those steps' writes of a's variable stored:
// the one a would read in that order. Call it after sliceLens.
func lenAheads(f *Finding, evs []depend.Event, rt *replayTrace) {
	s, _, _, ok := patternSpan(f, evs)
	if !ok {
		return
	}
	for i := range evs {
		a := &evs[i]
		if !a.Read || a.Write || a.Len == nil || a.Len.Len < 0 {
			continue
		}
		tr, pos := rt.get()
		if tr == nil {
			return
		}
		p := tracePos(s, pos, i)
		if p < 0 || p >= len(tr.Events) {
			continue
		}
		for j := i + 1; j < len(evs); j++ {
			if evs[j].Unit != a.Unit || evs[j].Thread != a.Thread || !otherBetween(evs, i, j) {
				continue
			}
			q := tracePos(s, pos, j)
			if q <= p || q >= len(tr.Events) {
				continue
			}
			if n, ok := aheadLen(tr, p, q); ok {
				a.Ahead = append(a.Ahead, depend.Ahead{To: j, Len: n})
			}
		}
	}
}

// otherBetween reports whether an event of another unit comes between
// the pattern's events i and j.
func otherBetween(evs []depend.Event, i, j int) bool {
	for k := i + 1; k < j; k++ {
		if evs[k].Unit != evs[i].Unit || evs[k].Thread != evs[i].Thread {
			return true
		}
	}
	return false
}

// aheadLen reports whether the trace's read p (a: the unit's check, of a
// slice-typed variable V) and the unit's later event q (b) leave the
// other goroutines' steps between free to run first, and gives the
// length the last of those steps' writes of V stored (the length a reads
// in that order; a's own length when they wrote V nowhere). The segment
// is [s, q], s the earliest acquire of the locks a's goroutine g holds
// at p (p itself when none): moving every other goroutine's event of the
// segment, in their order, before s, and keeping g's after them in its
// order, gives an execution in which every event but a reads what it
// read (the same write) and every lock operation is allowed, when
//   - g, in the segment, makes no synchronizing operation but locks (no
//     send, receive, close, WaitGroup, Once, Cond, fork or join): only
//     its memory accesses and locks meet the others';
//   - no access of g in the segment comes before a conflicting access of
//     another goroutine there (one object, one of them a write, map keys
//     not apart), a itself against the others' writes of V excepted: the
//     reads-from of every other access stays;
//   - no other goroutine acquires, in the segment, a lock g holds just
//     before s, and every lock that g acquires in the segment is released
//     within it by each other goroutine that acquired it there: the moved
//     steps find their locks free, and so do g's after them;
//   - every other goroutine's write of V in the segment recorded its
//     length (trace.FlagLen): the last of them is what a reads instead.
//
// The trace records no select default and no failed TryLock, nor the
// accesses of code that is not instrumented: like the prediction, this
// takes the trace's events as the whole of the goroutines' exchanges.
func aheadLen(tr *trace.Trace, p, q int) (int64, bool) {
	ev := tr.Events
	a := ev[p]
	g, v := a.G, a.Obj
	if a.Op != trace.Read || ev[q].G != g {
		return 0, false
	}
	// The locks g holds at p, and where it took each.
	held := map[int32][]int{}
	for k := 0; k < p; k++ {
		if c := ev[k]; c.G == g {
			switch {
			case c.Op.IsAcquire():
				held[c.Obj] = append(held[c.Obj], k)
			case c.Op.IsRelease() && len(held[c.Obj]) > 0:
				held[c.Obj] = held[c.Obj][:len(held[c.Obj])-1]
			}
		}
	}
	s := p
	for _, at := range held {
		for _, k := range at {
			s = min(s, k)
		}
	}
	before := map[int32]bool{}
	for o, at := range held {
		for _, k := range at {
			if k < s {
				before[o] = true
			}
		}
	}
	// g may also hold at s locks it releases before p.
	open := map[int32]int{}
	for k := 0; k < s; k++ {
		if c := ev[k]; c.G == g {
			switch {
			case c.Op.IsAcquire():
				open[c.Obj]++
			case c.Op.IsRelease() && open[c.Obj] > 0:
				open[c.Obj]--
			}
		}
	}
	for o, n := range open {
		if n > 0 {
			before[o] = true
		}
	}
	mine := map[int32][]int{} // g's accesses in the segment, by object
	taken := map[int32]bool{} // locks g acquires in the segment
	others := map[int32]map[int32]int{}
	n, wrote := int64(-1), false
	for k := s; k <= q; k++ {
		c := ev[k]
		if c.G == g {
			switch {
			case c.Op.IsAccess():
				if k != p {
					mine[c.Obj] = append(mine[c.Obj], k)
				}
			case c.Op.IsAcquire():
				taken[c.Obj] = true
				mine[c.Obj] = append(mine[c.Obj], k)
			case c.Op.IsRelease(), c.Op == trace.RegionBegin, c.Op == trace.RegionEnd, c.Op == trace.Begin, c.Op == trace.End:
			default:
				return 0, false
			}
			continue
		}
		switch {
		case c.Op.IsAccess():
			for _, m := range mine[c.Obj] {
				if (c.Op.Writes() || ev[m].Op.Writes()) && !trace.KeysApart(ev[m], c) {
					return 0, false
				}
			}
			if c.Obj == v && c.Op.Writes() {
				l, ok := trace.StoredLen(c)
				if !ok {
					return 0, false
				}
				n, wrote = l, true
			}
		case c.Op.IsAcquire():
			if before[c.Obj] {
				return 0, false
			}
			if others[c.Obj] == nil {
				others[c.Obj] = map[int32]int{}
			}
			others[c.Obj][c.G]++
		case c.Op.IsRelease():
			if others[c.Obj][c.G] > 0 {
				others[c.Obj][c.G]--
			}
		}
	}
	for o := range taken {
		for _, m := range others[o] {
			if m > 0 {
				return 0, false
			}
		}
	}
	if !wrote {
		// Nothing wrote V between: a reads in that order what it read.
		return lastLen(ev, p, v)
	}
	return n, true
}

// lastLen is the length the last write of object v before event p
// stored, when the trace recorded it.
func lastLen(ev []trace.Event, p int, v int32) (int64, bool) {
	for k := p - 1; k >= 0; k-- {
		if c := ev[k]; c.Obj == v && c.Op.Writes() {
			return trace.StoredLen(c)
		}
	}
	return 0, false
}
