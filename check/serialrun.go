package check

import "github.com/pecanvet/pecanvet/dynamic/trace"

// serialRun is Finding.Control when serialReplay holds.
const serialRun = "the replay's own trace is a serial run: without the other goroutines' void compare-and-swap rounds, each of their events inside the unit touches nothing the unit touches after it (or only reads what the unit only reads), so it moves after the unit's end with every value read unchanged; the test fails in that run, in which the unit ran whole, so the failure is not the interleaving's"

// serialReplay reports whether the replay of f, a reproduced atomicity
// or atomic-set violation that counts by its effect, is, event for
// event, a run in which the unit ran whole (marusama/semaphore's
// SetLimit, issue 26, trial 33). The replay's own trace is judged, as
// casRetried does: the unit is the local goroutine's component holding
// the anomaly's first event (from the lock or region that opens it to
// the event that closes it, the whole component even where a channel
// operation or a sleep splits it into smaller units: a larger window
// asks more). Every other goroutine's event inside it is either in a
// void round of a compare-and-swap loop of its goroutine (voidRound:
// reads and locks it lets go, then back to the load with nothing
// carried; the trace without those rounds is a run, each other event
// seeing the same values), or commutes with every event of the unit
// after it (commutesAfter: another object, loads of one, read locks of
// one), and at least one of them is an event of the anomaly.
// Those events then move, in their order, to just after the unit's end:
// every read sees the same write, every lock and channel operation the
// same partner, so the test ends as it did, and the unit ran whole. A
// failure of that run is one a serial order gives, and a lock around the
// unit would not remove it; it is the test's own timing (or another
// bug), not the interleaving's, and the finding stands or falls by the
// dependence criterion.
//
// TestSemaphore_SetLimit_increase_broadcast: the test calls SetLimit(2)
// to wake the goroutine waiting in Acquire and checks the count at once,
// racing the woken goroutine's acquire. In :197 asv-14 the waiter's read
// of the old channel (:111) and its re-load (:116) fall inside SetLimit,
// a void round (the state changed, it loads again); in :197 asv-9 its
// load (:93) falls after SetLimit's CAS, sees room and acquires (:101):
// state only, which SetLimit does not touch after its CAS. Either way the
// waiter acquired after a whole SetLimit, and the test's check came after
// that: the failure ("count = 1, but has 2") is the test's timing.
//
// Only the effect is judged: a void round's read does not void a
// dependence (resizebit, drainstatus: the replayed instance's read died
// with a failed CAS, the bug is another instance's), and the combination
// stays open to its other instances (packageSettles). The judgment needs
// the trace whole inside the unit: a free run records at most freeKeep
// (dynamic/rt) of each kind of its events, so a unit longer than that is
// not judged. Residual: an access the trace does not record (a quiet
// dependency's plain memory, the standard library's) could conflict
// unseen, as for unheldApart.
func serialReplay(f *Finding, round func(load, cas string) bool, rt *replayTrace) bool {
	p, s := f.Anomaly.Pattern, f.Schedule
	if p == nil || s == nil || f.Verdict.Trace == "" || len(s.Anomaly) == 0 {
		return false
	}
	if p.Kind != "av" && p.Kind != "asv" || len(s.Anomaly) != len(p.T) || len(p.T) != len(p.AR) {
		return false
	}
	tr, pos := rt.get()
	if tr == nil || len(pos) != len(s.Steps) {
		return false
	}
	for _, st := range s.Anomaly {
		if st < 0 || st >= len(pos) {
			return false
		}
	}
	q := pos[s.Anomaly[0]]
	if q < 0 {
		return false
	}
	open, end, ok := component(tr, q)
	if !ok || end-open >= serialWindow {
		return false
	}
	inside := false
	for k, st := range s.Anomaly {
		// The unit's other events the replay ran as scheduled are in
		// the component (an explored replay may have left the rest).
		at := pos[st]
		local := p.T[k] == p.T[0] && p.AR[k] == p.AR[0]
		if local && at >= 0 && (at < open || at > end) {
			return false
		}
		inside = inside || !local && at > open && at < end
	}
	if !inside {
		// The interleaving did not happen inside the unit (an explored
		// replay whose changed read sent the other goroutine elsewhere):
		// the failure is judged as before, as a related anomaly's.
		// handoff's duplicate Do (handoff.go:24 av) ran whole while the
		// first caller's fn ran, and returned the pending call's zero
		// value: the first caller's unit is the one interleaved.
		return false
	}
	g := tr.Events[q].G
	// The window is walked backwards, so that each other goroutine's
	// event meets the unit's events after it (after, joins).
	after := map[int32]*unitUse{}
	joins := map[int32]bool{}  // goroutines the unit joins after
	void := map[int32][2]int{} // a goroutine's void rounds [start, live) found
	for i := end; i >= open; i-- {
		e := tr.Events[i]
		if e.G == g {
			switch {
			case e.Op == trace.Join:
				joins[e.Obj] = true
			case e.Op.Object() == trace.ObjObject:
				a := after[e.Obj]
				if a == nil {
					a = &unitUse{}
					after[e.Obj] = a
				}
				a.any = true
				a.notRead = a.notRead || !readLike(e.Op)
				a.notRLock = a.notRLock || e.Op != trace.RLock && e.Op != trace.RUnlock
			}
			continue
		}
		if marker(e.Op) || e.Op == trace.Sleep || e.Op == trace.Begin || e.Op == trace.Fork {
			// A fork's child and a begin's fork are not the unit's.
			continue
		}
		if r, ok := void[e.G]; ok && r[0] <= i && i < r[1] {
			continue
		}
		if commutesAfter(e, after, joins) {
			continue
		}
		if start, live, _, ok := roundAround(tr, i, round); ok && start <= i && i < live {
			void[e.G] = [2]int{start, live}
			continue
		}
		return false
	}
	return true
}

// serialWindow bounds the unit's span in the replay's trace that
// serialReplay judges: dynamic/rt's free run records the first freeKeep
// (65,536) of its plain accesses and of its synchronizations, and a
// shorter window holds fewer of either, so none of its events went
// unrecorded.
const serialWindow = 1 << 16

// unitUse is how the unit uses an object after a point of its window:
// at all, otherwise than by loads, otherwise than by read locks.
type unitUse struct{ any, notRead, notRLock bool }

// readLike: a plain or atomic load.
func readLike(op trace.Op) bool { return op == trace.Read || op == trace.AtomicLoad }

// commutesAfter reports whether e, another goroutine's event inside the
// unit, commutes with every event of the unit after it (after, joins):
// it ends no goroutine the unit joins, and it touches an object the unit
// does not touch after it, or reads what the unit only reads after it, or
// read-locks what it only read-locks. An event of an object-less kind
// the unit may wait on (an end, a join) is not moved otherwise.
func commutesAfter(e trace.Event, after map[int32]*unitUse, joins map[int32]bool) bool {
	switch e.Op.Object() {
	case trace.ObjObject:
		if e.Obj < 0 {
			return false
		}
		a := after[e.Obj]
		switch {
		case a == nil || !a.any:
			return true
		case readLike(e.Op):
			return !a.notRead
		case e.Op == trace.RLock || e.Op == trace.RUnlock:
			return !a.notRLock
		}
		return false
	case trace.ObjGoroutine:
		return e.Op == trace.Fork
	}
	return e.Op == trace.End && !joins[e.G]
}

// component finds the component of tr's event q's goroutine that holds
// q: the event that opens it (a lock or region-begin with none held or
// open) and the one that closes it; false when q is in none, or it is
// not closed in the trace.
func component(tr *trace.Trace, q int) (open, end int, ok bool) {
	g := tr.Events[q].G
	locks, depth := 0, 0
	open = -1
	for i, e := range tr.Events {
		if e.G != g {
			continue
		}
		in := locks > 0 || depth > 0
		switch e.Op {
		case trace.Lock, trace.RLock:
			locks++
		case trace.Unlock, trace.RUnlock:
			if locks > 0 {
				locks--
			}
		case trace.RegionBegin:
			depth++
		case trace.RegionEnd:
			if depth > 0 {
				depth--
			}
		}
		now := locks > 0 || depth > 0
		switch {
		case !in && now:
			open = i
		case in && !now:
			if open >= 0 && open <= q && q <= i {
				return open, i, true
			}
			open = -1
		case !in && i == q:
			return 0, 0, false
		}
	}
	return 0, 0, false
}
