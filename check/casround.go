package check

import (
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/static/depend"
)

// casRound is Finding.Control when casRetried holds.
const casRound = "the interleaved part is a round of a compare-and-swap loop that failed against the value its own load read (or loaded the variable again and found it changed), read and wrote nothing else, and went back to the load: the replay is a run in which that round never happened, the goroutine only came later, so no unit was interleaved and the failure follows the replay's timing"

// casRetried reports whether the interleaving of f, a reproduced
// atomicity violation on one variable or atomic-set violation, is void
// because a goroutine of the anomaly ran, in the replay's own trace,
// void rounds of a compare-and-swap loop there. A round is void when,
// from its load, its goroutine only reads (plain, atomic, or a failed
// CAS, which sync/atomic leaves unwritten), takes locks it lets go,
// sleeps, and opens and closes regions without closing the load's
// activation, the round ends (its CAS, expecting the loaded value,
// fails, or it loads the variable again to compare with the loaded
// value), and it loads again at the same site (round, static/depend's
// RoundEnd: the way back carries no value of the round); a later
// round's CAS must swap. marusama/semaphore's Acquire (issue 26, trial
// 33) ends a round either way: its CAS (semaphore.go:101) fails, or,
// full, it fetches the broadcast channel under the read lock and its
// re-load (:116) differs; both come back through a select on
// ctx.Done() that took its default. A void round changes nothing another
// goroutine reads and leaves its goroutine where it was: taken out, the
// other events see the same values in the same order, and the goroutine
// starts over at the load, later. So the run is one in which the void
// rounds never happened.
//
//   - An acting violation (av/RRW: the unit's check, another goroutine's
//     check at the same site, then the unit's act): the other goroutine's
//     check is a void round's load, and without its rounds nothing falls
//     inside the unit. go-lock's rTryLock (issue 26, trial 32): reader
//     D's load of the lock state between reader A's load and its CAS;
//     A's CAS swapped, so D's, expecting what D loaded, failed, and D
//     loaded again and took the read lock. The test's failure
//     ("expected: 6, actual: 5", TestCASNoStarve) was the 100 ms D slept
//     while the replay held A.
//   - Any other (RWR, RWW, an atomic-set pattern): the unit's first event lies in a void round
//     of its goroutine (roundAround), and every other goroutine's event
//     of the anomaly comes before the unit's events that are left after
//     the void rounds (a CAS of the round that the replay expected to
//     swap and found failed is the round's). The unit is then whole
//     after them: a serial order. lockfree's RingBuffer.Enqueue (trial
//     32): another writer's CAS between this Enqueue's load and its CAS;
//     the CAS failed and Enqueue called itself again. The failure was
//     the test's 2 s deadline, which the replay's 25,656 held steps ran
//     out. Its Dequeue, with no effect: a failed round's CAS or slot
//     read "decides" the re-call's (the dependence criterion, judgeOne).
//     semaphore's :93 av and asv-11: Acquire's load, SetLimit's CAS (and
//     swap), Acquire's channel read and re-load; the test's check of
//     the count right after SetLimit failed on the woken waiter's
//     acquire, the test's own timing.
//
// A CAS that swapped in the round (ABA, or the remote goroutine's events
// wrote nothing) leaves it standing, as does a write, a channel
// operation or any other synchronization of the goroutine before its
// swap, and a failure path that left the function (a try-lock's false:
// its caller may count it, and no serial run fails the CAS). Not
// followed: another goroutine's failed TryLock of a lock a void round
// held (the recorder keeps no failed TryLock).
func casRetried(f *Finding, evs []depend.Event, round func(load, cas string) bool, rt *replayTrace) bool {
	p, s := f.Anomaly.Pattern, f.Schedule
	if p == nil || s == nil || f.Verdict.Trace == "" {
		return false
	}
	n := len(evs)
	if !(p.Kind == "av" && n == 3 || p.Kind == "asv" && n == 4 && !p.Acting) || len(s.Anomaly) != n || len(p.T) != n || len(p.AR) != n {
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
		_, _, _, ok := voidRound(tr, at, round)
		return ok
	}
	first := pos[s.Anomaly[0]]
	if first < 0 {
		return false
	}
	start, live, cas, ok := roundAround(tr, first, round)
	if !ok {
		return false
	}
	// Without the void rounds [start, live), the unit keeps only its
	// events from live on: each of the others' must come before them.
	local := s.Steps[s.Anomaly[0]].G
	kept, others := len(tr.Events), -1
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
		case isLocal && at < start:
			return false
		case isLocal && at >= live:
			kept = min(kept, at)
		case !isLocal:
			others = max(others, at)
		}
	}
	return others < kept
}

// roundAround finds the void round (voidRound) of the goroutine of
// tr's event q that holds q: the round's load, at q or before it with
// only that goroutine's quiet events between, whose round ends after q.
// It gives the load's event, the load of the round that swapped (the
// rounds between are void too) and the CAS's site.
func roundAround(tr *trace.Trace, q int, round func(load, cas string) bool) (start, live int, cas string, ok bool) {
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
		if end, live, cas, ok := voidRound(tr, c, round); ok && end > q {
			return c, live, cas, true
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
// that site, the first void round's end; the load of the round whose
// CAS swapped (every round before it is void); and the site of the
// CAS; false unless the first round is void and a later one swapped.
func voidRound(tr *trace.Trace, p int, round func(load, cas string) bool) (end, live int, cas string, ok bool) {
	e := tr.Events[p]
	if e.Op != trace.Read && e.Op != trace.AtomicLoad {
		return 0, 0, "", false
	}
	g, obj, load := e.G, eventObj(tr, e), tabName(tr.Sites, e.Site)
	if obj == "" || load == "" {
		return 0, 0, "", false
	}
	end = -1
	inRound, depth := true, 0
	known := map[string]bool{}
	ends := func(site string) bool {
		v, ok := known[site]
		if !ok {
			v = round(load, site)
			known[site] = v
		}
		return v
	}
	held := map[string]int{}
	for q := p + 1; q < len(tr.Events); q++ {
		n := tr.Events[q]
		if n.G != g {
			continue
		}
		o, site := eventObj(tr, n), tabName(tr.Sites, n.Site)
		switch {
		case o == obj && inRound && (n.Op == trace.AtomicLoad || n.Op == trace.AtomicRMW) && site != load && ends(site):
			if n.Op == trace.AtomicRMW {
				return end, live, site, end >= 0
			}
			inRound = false // a failed CAS or a re-load: the way back
		case o == obj && !inRound && (n.Op == trace.Read || n.Op == trace.AtomicLoad) && site == load:
			for _, c := range held {
				if c != 0 {
					return 0, 0, "", false
				}
			}
			if end < 0 {
				end = q
			}
			live = q
			inRound = true
		default:
			switch n.Op {
			case trace.Read, trace.AtomicLoad, trace.Sleep:
			case trace.RegionBegin:
				depth++
			case trace.RegionEnd:
				if depth--; depth < 0 {
					return 0, 0, "", false // left the load's activation
				}
			case trace.Lock, trace.RLock:
				held[o]++
			case trace.Unlock, trace.RUnlock:
				if held[o]--; held[o] < 0 {
					return 0, 0, "", false
				}
			default:
				return 0, 0, "", false
			}
		}
	}
	return 0, 0, "", false
}
