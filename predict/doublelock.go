package predict

import (
	"slices"

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
	// After, for a stale read's inversion (StaleInversions): the events of
	// the writer after each of which it holds a lock the reader does not
	// (B) and not yet the one the write needs (A); the schedule runs one
	// of them before the read, so that the reader, let go after its read,
	// finds B taken. Nil for a double lock.
	After []int32
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
	at, any := readSites(tr, relock)
	if !any {
		return nil
	}
	next := nextOtherWrites(evs)
	lastW := map[int32]int32{} // variable → its latest write so far
	var out []DoubleLock
	for i, ev := range evs {
		if ev.Op == trace.Write {
			lastW[ev.Obj] = int32(i)
		}
		if ev.Op != trace.Read || ev.Site < 0 || int(ev.Site) >= len(at) || !at[ev.Site] {
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

// readSites returns accept's answer for each site of tr's plain reads
// (indexed by site; false for the other sites), asked once per site, and
// whether any is true. Every candidate of DoubleLocks and StaleInversions
// is a read at an accepted site, so with none the whole-trace passes that
// pair reads with writes can be skipped: on Go's race testdata's
// TestNoRaceTinyAlloc (a million accesses to half a million variables, no
// relock site) they were a quarter of its prediction.
func readSites(tr *trace.Trace, accept func(site string) bool) ([]bool, bool) {
	at := make([]bool, len(tr.Sites))
	asked := make([]bool, len(tr.Sites))
	any := false
	for _, ev := range tr.Events {
		if ev.Op != trace.Read || ev.Site < 0 || int(ev.Site) >= len(at) || asked[ev.Site] {
			continue
		}
		asked[ev.Site] = true
		if accept(tr.Site(ev)) {
			at[ev.Site], any = true, true
		}
	}
	return at, any
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
func doubleLocks(gr *ptg.Graph, gen *schedule.Generator, pats []*pattern.Pattern, relock, inversion func(string) bool, stop func() bool, st *Stats, keep func(Anomaly) bool) {
	var after, stale, inv *pattern.Pattern // AT=w-r, AT=r-w; lock relock AT=r-w
	for _, q := range pats {
		switch {
		case !q.Relock:
		case q.Lock:
			if q.RelockRead() == 0 && inv == nil {
				inv = q
			}
		case q.RelockRead() == 1 && after == nil:
			after = q
		case q.RelockRead() == 0 && stale == nil:
			stale = q
		}
	}
	if after == nil && stale == nil && inv == nil {
		return
	}
	t := newTries(gr, stop, st, keep, 0)
	var ds []DoubleLock
	if after != nil || stale != nil {
		ds = DoubleLocks(gr, relock)
	}
	nd := len(ds)
	if inv != nil {
		ds = append(ds, StaleInversions(gr, inversion)...)
	}
	for i, d := range ds {
		p := after
		switch {
		case i >= nd:
			p = inv
		case d.Stale:
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
		if d.After != nil {
			// The read inside the writer's window: after one of its
			// events, the first that gives a feasible schedule.
			generate = func() (sched schedule.Schedule, err error) {
				for _, b := range d.After {
					in := append([]int32{b}, evs...)
					if sched, err = gen.Generate(in, false); err == nil {
						if err = gen.Check(sched, in, false); err == nil {
							return sched, nil
						}
					}
				}
				return sched, err
			}
		}
		if !t.try(p, evs, generate) {
			return
		}
	}
}

// StaleInversions returns the lock-order inversions that a stale read
// sends its goroutine into (pattern deadlock/lock-order-stale, options
// lock and relock, AT=r-w): Read is a read of t2 at a site inversion
// accepts (its value decides a path that takes another mutex while t2
// holds one there: moby#4951's lookup under the global lock, then the
// device's lock), made while t2 holds lock A; Write is the write of t1 it
// read in the recorded run, made inside t1's critical section of A,
// which t1 entered holding a lock B that t2 does not hold at the read.
// Another schedule runs the read first, on the older value: t2 then
// goes, holding A, for a lock t1 holds (B, or another of its locks)
// while t1 waits for A. The recorded run shows neither t2's path nor its
// lock, so the trace cannot say that the path takes B: the finder keeps
// only reads where t1 has a lock to be waited for, and the replay decides
// (a wait-for cycle between the two once nothing moves). Stale is set.
func StaleInversions(gr *ptg.Graph, inversion func(site string) bool) []DoubleLock {
	if inversion == nil {
		return nil
	}
	tr := gr.Tr
	evs := tr.Events
	at, any := readSites(tr, inversion)
	if !any {
		return nil
	}
	lastW := map[int32]int32{} // variable → its latest write so far
	type cand struct{ r, w int32 }
	var cands []cand
	for i, ev := range evs {
		if ev.Op == trace.Write {
			lastW[ev.Obj] = int32(i)
		}
		if ev.Op != trace.Read || ev.Site < 0 {
			continue
		}
		w, ok := lastW[ev.Obj]
		if !ok || evs[w].G == ev.G {
			continue
		}
		if int(ev.Site) < len(at) && at[ev.Site] {
			cands = append(cands, cand{int32(i), w})
		}
	}
	if len(cands) == 0 {
		return nil
	}
	// The locks held at each candidate's read and write.
	want := map[int32]bool{}
	for _, c := range cands {
		want[c.r], want[c.w] = true, true
	}
	held := map[int32][]heldLock{}
	eachEvent(gr, func(e int32, h []heldLock) {
		if want[e] {
			held[e] = slices.Clone(h)
		}
	})
	var out []DoubleLock
	for _, c := range cands {
		hr, hw := held[c.r], held[c.w]
		if len(hr) == 0 {
			continue
		}
		holds := func(lock int32) bool {
			for _, h := range hr {
				if h.lock == lock {
					return true
				}
			}
			return false
		}
		var after []int32
		for i, a := range hw {
			// a: t1's lock that t2 holds (in a mode excluding t1's), the
			// write inside it; hw[:i], taken before a and still held, are
			// the locks t1 holds while it asks for a.
			if !slices.ContainsFunc(hr, func(h heldLock) bool { return h.lock == a.lock && (h.write || a.write) }) {
				continue
			}
			// t1's window: from its last release of a's lock before a (or
			// from b, if later) to a, t1 holds b and not a's lock.
			rel := int32(-1)
			for _, e := range gr.G(evs[c.w].G) {
				if e >= a.acq {
					break
				}
				if ev := evs[e]; ev.Op.IsRelease() && ev.Obj == a.lock {
					rel = e
				}
			}
			for _, b := range hw[:i] {
				if !holds(b.lock) {
					after = append(after, max(b.acq, rel))
				}
			}
		}
		if len(after) > 0 {
			slices.Sort(after)
			out = append(out, DoubleLock{Write: c.w, Read: c.r, Stale: true, After: slices.Compact(after)})
		}
	}
	return out
}
