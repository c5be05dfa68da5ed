package predict

import (
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict/ptg"
	"github.com/pecanvet/pecanvet/predict/schedule"
)

// DoubleLock is a double lock that a schedule can send a goroutine into
// (the relock patterns): Read is a read at a relock site (its value
// decides a branch that locks again a mutex its goroutine holds there),
// Write a write of another goroutine to the same variable: the first
// after the read in the trace (deadlock/double-lock: run it first, and
// the reader sees the new value), or, Stale, the one the read saw, the
// latest before it (deadlock/double-lock-stale: run the read first, on
// the older value). The recorded run did not take the branch.
type DoubleLock struct {
	Write, Read int32
	Stale       bool
}

// Events returns the double lock's events in schedule order.
func (d DoubleLock) Events() []int32 {
	if d.Stale {
		return []int32{d.Read, d.Write}
	}
	return []int32{d.Write, d.Read}
}

// DoubleLocks returns the double-lock candidates of gr's trace: each
// plain read at a site relock accepts, with the first write of another
// goroutine to its variable that follows it, and (Stale) the write it
// read when another goroutine made it. Whether the schedule is feasible
// is for the schedule generator to decide, and whether the reader then
// locks its own mutex again for the replay.
func DoubleLocks(gr *ptg.Graph, relock func(site string) bool) []DoubleLock {
	if relock == nil {
		return nil
	}
	tr := gr.Tr
	evs := tr.Events
	next := nextOtherWrites(evs)
	at := map[int32]bool{}     // site → relock's answer
	lastW := map[int32]int32{} // variable → its latest write so far
	var out []DoubleLock
	for i, ev := range evs {
		if ev.Op == trace.Write {
			lastW[ev.Obj] = int32(i)
		}
		if ev.Op != trace.Read || ev.Site < 0 {
			continue
		}
		ok, seen := at[ev.Site]
		if !seen {
			ok = relock(tr.Site(ev))
			at[ev.Site] = ok
		}
		if !ok {
			continue
		}
		if w, ok := lastW[ev.Obj]; ok && evs[w].G != ev.G {
			out = append(out, DoubleLock{Write: w, Read: int32(i), Stale: true})
		}
		if j := next[i]; j >= 0 {
			out = append(out, DoubleLock{Write: j, Read: int32(i)})
		}
	}
	return out
}

// nextOtherWrites returns, for each read of evs, the first later write
// of another goroutine to its variable (-1: none, and for other events).
// Scanning forward from each read instead was quadratic where a relock
// read repeats and no other goroutine writes its variable again: on
// bigcache's TestEntriesIteratorParallelAdd (a million events) it ran for
// twenty minutes, past the package's budget, without polling it.
//
// Backward, per variable: the first upcoming write (w1, by goroutine g1)
// and the first upcoming write by a goroutine other than g1 (w2). A read
// by g1 takes w2 (the writes before it are g1's own), any other w1.
func nextOtherWrites(evs []trace.Event) []int32 {
	type upcoming struct {
		w1, w2 int32
		g1     int32
	}
	up := map[int32]*upcoming{}
	next := make([]int32, len(evs))
	for i := len(evs) - 1; i >= 0; i-- {
		ev := &evs[i]
		next[i] = -1
		switch ev.Op {
		case trace.Write:
			u := up[ev.Obj]
			if u == nil {
				up[ev.Obj] = &upcoming{w1: int32(i), w2: -1, g1: ev.G}
				continue
			}
			if u.g1 != ev.G {
				u.w2 = u.w1
			}
			u.w1, u.g1 = int32(i), ev.G
		case trace.Read:
			if u := up[ev.Obj]; u != nil {
				if u.g1 != ev.G {
					next[i] = u.w1
				} else {
					next[i] = u.w2
				}
			}
		}
	}
	return next
}

// doubleLocks predicts the double locks of gr for the relock patterns
// among pats, each with the schedule that runs its events in the
// pattern's order (feasible as the simulator finds, locks respected: one
// critical section comes whole before the other), and passes each to
// keep.
func doubleLocks(gr *ptg.Graph, gen *schedule.Generator, pats []*pattern.Pattern, relock func(string) bool, stop func() bool, st *Stats, keep func(Anomaly) bool) {
	var after, stale *pattern.Pattern // AT=w-r, AT=r-w
	for _, q := range pats {
		switch {
		case !q.Relock:
		case q.RelockRead() == 1 && after == nil:
			after = q
		case q.RelockRead() == 0 && stale == nil:
			stale = q
		}
	}
	if after == nil && stale == nil {
		return
	}
	t := newTries(gr, stop, st, keep, 0)
	for _, d := range DoubleLocks(gr, relock) {
		p := after
		if d.Stale {
			p = stale
		}
		if p == nil {
			continue
		}
		evs := d.Events()
		generate := func() (schedule.Schedule, error) {
			sched, err := gen.Generate(evs, false)
			if err == nil {
				err = gen.Check(sched, evs, false)
			}
			return sched, err
		}
		if !t.try(p, evs, generate) {
			return
		}
	}
}
