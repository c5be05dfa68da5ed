package check

import (
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/static/depend"
)

// casRound is Finding.Control when casRetried holds.
const casRound = "the interleaved goroutine's part is a round of a compare-and-swap loop that failed against the value its own load read, read and wrote nothing else, and went back to the load: the replay is a run in which that round never happened, the goroutine only came later, so no unit was interleaved and the failure follows the replay's timing"

// casRetried reports whether the effect of f, a reproduced atomicity
// violation on one variable, is void because the goroutine whose unit
// the anomaly interleaves with ran, in the replay's own trace, a void
// round of a compare-and-swap loop there: its load of the variable at
// the anomaly's site, then only reads (of anything: plain, atomic,
// a failed CAS, which sync/atomic leaves unwritten), balanced lock
// and unlock pairs, region markers that never close the load's
// activation, and sleeps, including a CAS of the variable that expected
// the loaded value and failed, until it loaded the variable again at the
// same site (round, static/depend's CASRound: the way back carries no
// value of the round), after which its next CAS there swapped (more
// void rounds may come first). Such a round changes nothing any other
// goroutine reads, and leaves its goroutine where it was before it:
// taken out, the replay's other events see the same values, in the
// same order, and the goroutine starts over at the load, later. So the
// run is one in which the round never happened.
//
//   - An acting violation (av/RRW: the unit's check, another goroutine's
//     check at the same site, then the unit's act): the other goroutine's
//     check is that load. Without its round nothing falls inside the
//     unit. go-lock's rTryLock (issue 26, trial 32): reader D's load of
//     the lock state between reader A's load and its CAS; A's CAS swapped,
//     so D's, expecting what D loaded, failed, and D loaded again and
//     took the read lock. The test's failure ("expected: 6, actual: 5",
//     TestCASNoStarve) was the 100 ms D slept while the replay held A.
//   - Any other (RWR, RWW): the unit's own first event is that load, and
//     every event of the unit lies in the void round or is its next load
//     (or is its CAS, expected to swap, which failed: the replay then
//     left the schedule there). The unit then starts at that next load,
//     after the other goroutine's events: a serial order. lockfree's
//     RingBuffer.Enqueue (trial 32): another writer's CAS between this
//     Enqueue's load and its CAS; the CAS failed and Enqueue called
//     itself again. The failure was the test's 2 s deadline, which the
//     replay's 25,656 held steps ran out.
//
// A CAS that swapped in the round (ABA, or the remote goroutine's events
// wrote nothing) leaves it standing, as does a write, a channel
// operation or any other synchronization of the goroutine before its
// swap, and a failure path that left the function (a try-lock's false:
// its caller may count it, and no serial run fails the CAS).
func casRetried(f *Finding, evs []depend.Event, round func(load, cas string) bool, rt *replayTrace) bool {
	p, s := f.Anomaly.Pattern, f.Schedule
	if p == nil || p.Kind != "av" || s == nil || len(evs) != 3 || len(s.Anomaly) != 3 || len(p.T) != 3 || len(p.AR) != 3 || f.Verdict.Trace == "" {
		return false
	}
	for _, st := range s.Anomaly {
		if st >= len(s.Steps) {
			return false
		}
	}
	if p.Acting && (evs[1].Site != evs[0].Site || !evs[1].Read || evs[1].Write) {
		return false
	}
	tr, pos := rt.get()
	if tr == nil || len(pos) != len(s.Steps) {
		return false
	}
	if p.Acting {
		// The other goroutine's check is the void round's load.
		at := pos[s.Anomaly[1]]
		if at < 0 {
			return false
		}
		_, _, ok := voidRound(tr, at, round)
		return ok
	}
	first := pos[s.Anomaly[0]]
	if first < 0 {
		return false
	}
	start, end, cas, ok := roundAround(tr, first, round)
	if !ok {
		return false
	}
	local := s.Steps[s.Anomaly[0]].G
	for j, st := range s.Anomaly {
		isLocal := p.T[j] == p.T[0] && p.AR[j] == p.AR[0]
		switch at := pos[st]; {
		case at < 0 && isLocal:
			// Not run as scheduled: only the round's CAS, expected to
			// swap, which failed (the replay left the schedule there).
			if s.Steps[st].Site != cas || s.Steps[st].G != local {
				return false
			}
		case at < 0:
			return false
		case isLocal:
			if at < start {
				return false
			}
		case at >= end:
			return false // another's event inside the round that counts
		}
	}
	return true
}

// roundAround finds the void round (voidRound) of the goroutine of
// tr's event q that holds q: the round's load, at q or before it with
// only that goroutine's quiet events between, whose round ends after q.
// It gives the load's event, the round's end and its CAS's site.
func roundAround(tr *trace.Trace, q int, round func(load, cas string) bool) (start, end int, cas string, ok bool) {
	g := tr.Events[q].G
	seen := 0
	for c := q; c >= 0 && seen < 256; c-- {
		e := tr.Events[c]
		if e.G != g {
			continue
		}
		seen++
		if c < q && !roundQuiet(e.Op) {
			break
		}
		if e.Op != trace.Read && e.Op != trace.AtomicLoad {
			continue
		}
		if end, cas, ok := voidRound(tr, c, round); ok && end > q {
			return c, end, cas, true
		}
	}
	return 0, 0, "", false
}

// roundQuiet reports whether op, by a void round's goroutine, reads or writes
// nothing another goroutine reads (voidRound checks that locks balance
// and that region markers stay in the round's activation).
func roundQuiet(op trace.Op) bool {
	switch op {
	case trace.Read, trace.AtomicLoad, trace.Sleep, trace.RegionBegin, trace.RegionEnd, trace.Lock, trace.RLock, trace.Unlock, trace.RUnlock:
		return true
	}
	return false
}

// voidRound reads the rounds of tr's goroutine from its load at event
// p (see casRetried): the event of its next load of the variable at
// that site, the first void round's end, and the site of the round's
// CAS; false unless the round is void and a later round's CAS swapped.
func voidRound(tr *trace.Trace, p int, round func(load, cas string) bool) (end int, cas string, ok bool) {
	e := tr.Events[p]
	if e.Op != trace.Read && e.Op != trace.AtomicLoad {
		return 0, "", false
	}
	g, obj, load := e.G, eventObj(tr, e), tabName(tr.Sites, e.Site)
	if obj == "" || load == "" {
		return 0, "", false
	}
	end = -1
	inRound, depth := true, 0
	held := map[string]int{}
	for q := p + 1; q < len(tr.Events); q++ {
		n := tr.Events[q]
		if n.G != g {
			continue
		}
		o, site := eventObj(tr, n), tabName(tr.Sites, n.Site)
		switch {
		case o == obj && inRound && (n.Op == trace.AtomicLoad || n.Op == trace.AtomicRMW) && site != load && (site == cas || cas == "" && round(load, site)):
			if n.Op == trace.AtomicRMW {
				return end, cas, end >= 0
			}
			cas, inRound = site, false // failed: the way back
		case o == obj && !inRound && (n.Op == trace.Read || n.Op == trace.AtomicLoad) && site == load:
			for _, c := range held {
				if c != 0 {
					return 0, "", false
				}
			}
			if end < 0 {
				end = q
			}
			inRound = true
		default:
			switch n.Op {
			case trace.Read, trace.AtomicLoad, trace.Sleep:
			case trace.RegionBegin:
				depth++
			case trace.RegionEnd:
				if depth--; depth < 0 {
					return 0, "", false // left the load's activation
				}
			case trace.Lock, trace.RLock:
				held[o]++
			case trace.Unlock, trace.RUnlock:
				if held[o]--; held[o] < 0 {
					return 0, "", false
				}
			default:
				return 0, "", false
			}
		}
	}
	return 0, "", false
}
