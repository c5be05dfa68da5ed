package predict

import (
	"slices"
	"sort"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict/ptg"
	"github.com/pecanvet/pecanvet/predict/schedule"
)

// Inversion is a lock-order inversion of a trace, its events in the order
// of the deadlock pattern (pattern set "deadlock"): goroutine G1 takes
// lock A at A1, G2 takes B at B2, then G1 asks for B at B1 and G2 for A
// at A2.
type Inversion struct{ A1, B2, B1, A2 int32 }

// Events returns the inversion's events in pattern order.
func (v Inversion) Events() []int32 { return []int32{v.A1, v.B2, v.B1, v.A2} }

// lockEdge: a goroutine asks for lock at b while holding, from a, the lock
// of a; guard are the other locks it holds there.
type lockEdge struct {
	a, b  int32
	guard []heldLock
}

type heldLock struct {
	lock, acq int32
	write     bool
}

// maxEdges bounds the acquisitions kept per ordered pair of locks (a
// loop that nests two locks a million times is one order, many times).
const maxEdges = 64

// Inversions returns the lock-order inversions of gr's trace: two
// goroutines, each taking the lock the other holds, in modes that
// exclude each other (one of each pair writes), with no lock both hold
// there in excluding modes (a common guard), and neither asking
// happening before the other's (POR). Whether the deadlock state is
// reachable is for schedule.Generator.Deadlock to decide. For each pair,
// G1 is the goroutine whose asking comes first in the trace.
func Inversions(gr *ptg.Graph) []Inversion {
	evs := gr.Tr.Events
	type pair struct{ a, b int32 }
	edges := map[pair][]lockEdge{}
	eachAcquire(gr, func(e int32, held []heldLock) {
		ev := evs[e]
		for _, h := range held {
			if h.lock == ev.Obj {
				continue
			}
			k := pair{h.lock, ev.Obj}
			if len(edges[k]) >= maxEdges {
				continue
			}
			var guard []heldLock
			for _, o := range held {
				if o.lock != h.lock && o.lock != ev.Obj {
					guard = append(guard, o)
				}
			}
			edges[k] = append(edges[k], lockEdge{a: h.acq, b: e, guard: guard})
		}
	})
	excl := func(x, y int32) bool { return evs[x].Op == trace.Lock || evs[y].Op == trace.Lock }
	var out []Inversion
	for k, e1s := range edges {
		if k.a > k.b {
			continue // each unordered pair once
		}
		for _, e1 := range e1s {
			for _, e2 := range edges[pair{k.b, k.a}] {
				// e1: A held from e1.a, asks B at e1.b; e2: B held from e2.a, asks A at e2.b.
				if evs[e1.b].G == evs[e2.b].G || !excl(e1.b, e2.a) || !excl(e2.b, e1.a) ||
					guarded(e1.guard, e2.guard) || gr.POR(e1.b, e2.b) || gr.POR(e2.b, e1.b) {
					continue
				}
				v := Inversion{A1: e1.a, B2: e2.a, B1: e1.b, A2: e2.b}
				if e2.b < e1.b {
					v = Inversion{A1: e2.a, B2: e1.a, B1: e2.b, A2: e1.b}
				}
				out = append(out, v)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		x, y := out[i], out[j]
		if x.B1 != y.B1 {
			return x.B1 < y.B1
		}
		return x.A2 < y.A2
	})
	return out
}

// OnceRun is a deadlock through sync.Once a trace predicts (pattern
// deadlock/once-run): rt records each call of Once.Do as a lock of the
// Once, held by the call that runs the function while it runs (a later
// call waits for it). Goroutine G1 holds lock A from A1 and calls Do at
// B1; B2 is G2's call of Do on the same Once, which found the function
// run, while a call of Do at B2's site that ran its function took A in
// it. Another schedule lets B2 run its function first: G1 then waits in
// Do for the function, and the function for A.
type OnceRun struct{ A1, B2, B1 int32 }

// Events returns the deadlock's events in pattern order.
func (v OnceRun) Events() []int32 { return []int32{v.A1, v.B2, v.B1} }

// maxOnceRunPairs bounds the pairs of calls of Do that OnceRuns looks at
// (a Once called by thousands of goroutines under a lock).
const maxOnceRunPairs = 1 << 18

// maxOnceFnLocks bounds the locks kept per Do site as taken by its
// functions.
const maxOnceFnLocks = 16

// OnceRuns returns the deadlocks through sync.Once of gr's trace, and for
// each Once (its lock's object) the lock events of its calls of Do. A
// call of Do is a lock event at a site that also holds once events; it
// ran the function if its once event (its goroutine's next at that site)
// is the Once's first. A call that did not, B2, is a candidate with each
// call B1 of another goroutine on the same Once made holding a lock A
// that a function run at B2's site took (the evidence that B2's own
// function would take it; only a replay proves it): the same object
// first, then another of the same name (another instance of the field),
// in modes that exclude each other, G2 not holding A at B2, with no
// common guard and B1 not happening before B2 (G2 must get into Do
// first). Whether the state is reachable is for
// schedule.Generator.OnceRun to decide.
func OnceRuns(gr *ptg.Graph) ([]OnceRun, map[int32][]int32) {
	evs := gr.Tr.Events
	onceSite := map[int32]bool{}
	first := map[int32]int32{} // Once → its first once event
	for i, ev := range evs {
		if ev.Op == trace.OnceDo {
			onceSite[ev.Site] = true
			if _, ok := first[ev.Obj]; !ok {
				first[ev.Obj] = int32(i)
			}
		}
	}
	if len(onceSite) == 0 {
		return nil, nil
	}
	type fnLock struct {
		lock  int32
		write bool
	}
	fnLocks := map[int32][]fnLock{} // Do site → locks its functions took
	ran := map[int32]bool{}         // lock event of a call that ran f
	takes := map[int32][]int32{}    // Once's lock → its calls' lock events
	for g := int32(0); g < int32(gr.NG); g++ {
		row := gr.G(g)
		for li, e := range row {
			ev := evs[e]
			if ev.Op != trace.Lock || !onceSite[ev.Site] {
				continue
			}
			for lj := li + 1; lj < len(row); lj++ {
				d := evs[row[lj]]
				if d.Op != trace.OnceDo || d.Site != ev.Site {
					continue
				}
				if first[d.Obj] != row[lj] {
					break
				}
				ran[e] = true
				for _, f := range row[li+1 : lj] {
					fe := evs[f]
					if !fe.Op.IsAcquire() || fe.Obj == ev.Obj {
						continue
					}
					l := fnLock{fe.Obj, fe.Op == trace.Lock}
					if ls := fnLocks[ev.Site]; len(ls) < maxOnceFnLocks && !slices.Contains(ls, l) {
						fnLocks[ev.Site] = append(ls, l)
					}
				}
				break
			}
			takes[ev.Obj] = append(takes[ev.Obj], e)
		}
	}
	if len(fnLocks) == 0 {
		return nil, takes
	}
	heldAt := map[int32][]heldLock{}
	eachEvent(gr, func(e int32, held []heldLock) {
		if ev := evs[e]; ev.Op == trace.Lock && onceSite[ev.Site] {
			heldAt[e] = slices.Clone(held)
		}
	})
	holding := func(held []heldLock, lock int32) (heldLock, bool) {
		for _, h := range held {
			if h.lock == lock {
				return h, true
			}
		}
		return heldLock{}, false
	}
	// desc is an object's name without its instance number: a function
	// run at a call of Do that took another instance of the lock (another
	// relay's mutex, in an earlier round of the test) is weaker evidence,
	// tried after the same object.
	desc := func(o int32) string { return trace.Desc(gr.Tr.Objects[o]) }
	type cand struct {
		v    OnceRun
		same bool
	}
	var cs []cand
	work := 0
	for _, calls := range takes {
		// G1's calls hold a lock; G2's did not run the function, at a
		// site whose functions took locks.
		var b1s, b2s []int32
		for _, c := range calls {
			if len(heldAt[c]) > 0 {
				b1s = append(b1s, c)
			}
			if !ran[c] && len(fnLocks[evs[c].Site]) > 0 {
				b2s = append(b2s, c)
			}
		}
		for _, b2 := range b2s {
			h2 := heldAt[b2]
			for _, b1 := range b1s {
				if work++; work > maxOnceRunPairs {
					break
				}
				if evs[b1].G == evs[b2].G || gr.POR(b1, b2) {
					continue
				}
				h1 := heldAt[b1]
				for _, h := range h1 {
					if _, ok := holding(h2, h.lock); ok {
						continue // G2 holds it: its function would not ask for it
					}
					same, like := false, false
					for _, a := range fnLocks[evs[b2].Site] {
						if h.write || a.write {
							same = same || a.lock == h.lock
							like = like || desc(a.lock) == desc(h.lock)
						}
					}
					if !like {
						continue
					}
					var guard []heldLock
					for _, o := range h1 {
						if o.lock != h.lock {
							guard = append(guard, o)
						}
					}
					if guarded(guard, h2) {
						continue
					}
					cs = append(cs, cand{OnceRun{A1: h.acq, B2: b2, B1: b1}, same})
				}
			}
		}
	}
	sort.Slice(cs, func(i, j int) bool {
		x, y := cs[i], cs[j]
		if x.same != y.same {
			return x.same
		}
		if x.v.B1 != y.v.B1 {
			return x.v.B1 < y.v.B1
		}
		if x.v.B2 != y.v.B2 {
			return x.v.B2 < y.v.B2
		}
		return x.v.A1 < y.v.A1
	})
	out := make([]OnceRun, len(cs))
	for i, c := range cs {
		out[i] = c.v
	}
	return out, takes
}

// RWCycle is a recursive read lock behind a waiting writer (pattern
// deadlock/rlock-writer): goroutine G1 read-locks an RWMutex at R1 and,
// still holding it, read-locks it again at R1b; G2 write-locks it at W2.
// With G2 waiting at W2 for R1's read lock, sync.RWMutex keeps R1b out
// (a blocked writer excludes new readers): neither goes on.
type RWCycle struct{ R1, W2, R1b int32 }

// Events returns the cycle's events in pattern order.
func (c RWCycle) Events() []int32 { return []int32{c.R1, c.W2, c.R1b} }

// RWCycles returns the recursive read locks of gr's trace that a writer
// of another goroutine can wait between: G1 read-locks lock L at r1b
// while it holds a read lock of L from r1, G2 write-locks L at w2, no
// other lock is held by both there in excluding modes (a common guard),
// and neither r1b nor w2 happens before the other (POR). Whether the
// state is reachable is for schedule.Generator.RWCycle to decide.
func RWCycles(gr *ptg.Graph) []RWCycle {
	evs := gr.Tr.Events
	type recursive struct {
		r1, r1b int32
		guard   []heldLock
	}
	type writer struct {
		w     int32
		guard []heldLock
	}
	recs := map[int32][]recursive{} // by lock
	writers := map[int32][]writer{}
	eachAcquire(gr, func(e int32, held []heldLock) {
		ev := evs[e]
		var guard []heldLock
		r1 := int32(-1)
		for _, h := range held {
			if h.lock != ev.Obj {
				guard = append(guard, h)
			} else if !h.write && ev.Op == trace.RLock {
				r1 = h.acq // the latest read lock of L still held
			}
		}
		if r1 >= 0 && len(recs[ev.Obj]) < maxEdges {
			recs[ev.Obj] = append(recs[ev.Obj], recursive{r1, e, guard})
		}
		if ev.Op == trace.Lock && len(writers[ev.Obj]) < maxEdges {
			writers[ev.Obj] = append(writers[ev.Obj], writer{e, guard})
		}
	})
	var out []RWCycle
	for l, rs := range recs {
		for _, r := range rs {
			for _, w := range writers[l] {
				if evs[w.w].G == evs[r.r1b].G || guarded(r.guard, w.guard) ||
					gr.POR(r.r1b, w.w) || gr.POR(w.w, r.r1b) {
					continue
				}
				out = append(out, RWCycle{R1: r.r1, W2: w.w, R1b: r.r1b})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		x, y := out[i], out[j]
		if x.R1b != y.R1b {
			return x.R1b < y.R1b
		}
		if x.W2 != y.W2 {
			return x.W2 < y.W2
		}
		return x.R1 < y.R1
	})
	return out
}

// eachAcquire calls at for every lock acquisition e of the trace, in each
// goroutine's order, with the locks its goroutine holds just before it.
func eachAcquire(gr *ptg.Graph, at func(e int32, held []heldLock)) {
	evs := gr.Tr.Events
	eachEvent(gr, func(e int32, held []heldLock) {
		if evs[e].Op.IsAcquire() {
			at(e, held)
		}
	})
}

// eachEvent calls at for every event e of the trace, in each goroutine's
// order, with the locks its goroutine holds just before it, in the order
// it took them.
func eachEvent(gr *ptg.Graph, at func(e int32, held []heldLock)) {
	evs := gr.Tr.Events
	for g := int32(0); g < int32(gr.NG); g++ {
		var held []heldLock
		for _, e := range gr.G(g) {
			ev := evs[e]
			at(e, held)
			switch {
			case ev.Op.IsAcquire():
				held = append(held, heldLock{ev.Obj, e, ev.Op == trace.Lock})
			case ev.Op.IsRelease():
				w := ev.Op == trace.Unlock
				for i := len(held) - 1; i >= 0; i-- {
					if held[i].lock == ev.Obj && held[i].write == w {
						held = slices.Delete(held, i, i+1)
						break
					}
				}
			}
		}
	}
}

// guarded reports whether two sets of held locks share a lock in modes
// that exclude each other (one of them writes).
func guarded(x, y []heldLock) bool {
	for _, h := range x {
		for _, o := range y {
			if h.lock == o.lock && (h.write || o.write) {
				return true
			}
		}
	}
	return false
}

// maxDeadlockTries bounds the instances of one site combination tried.
const maxDeadlockTries = 2

// deadlocks predicts the lock-order inversions of gr for the lock
// patterns among pats, and the recursive read locks behind a writer
// (RWCycles) for the rlock-writer pattern, each with the schedule that
// drives it into its deadlock, and passes each to keep (Options.Confirm):
// it reports whether the instance was kept.
func deadlocks(gr *ptg.Graph, gen *schedule.Generator, pats []*pattern.Pattern, stop func() bool, st *Stats, keep func(Anomaly) bool) {
	var p, pw, pc, po *pattern.Pattern
	for _, q := range pats {
		switch {
		case q.OnceRun():
			if po == nil {
				po = q
			}
		case q.Cond:
			if pc == nil {
				pc = q
			}
		case q.RWWriter():
			if pw == nil {
				pw = q
			}
		case q.Lock && !q.Relock: // lock relock: a stale read's inversion (doubleLocks)
			if p == nil {
				p = q
			}
		}
	}
	t := newTries(gr, stop, st, keep, maxDeadlockTries)
	if p != nil {
		for _, v := range Inversions(gr) {
			if !t.try(p, v.Events(), func() (schedule.Schedule, error) { return gen.Deadlock(v.A1, v.B2, v.B1, v.A2) }) {
				return
			}
		}
	}
	if pw != nil {
		for _, c := range RWCycles(gr) {
			if !t.try(pw, c.Events(), func() (schedule.Schedule, error) { return gen.RWCycle(c.R1, c.W2, c.R1b) }) {
				return
			}
		}
	}
	if po != nil {
		vs, takes := OnceRuns(gr)
		for _, v := range vs {
			if !t.try(po, v.Events(), func() (schedule.Schedule, error) { return gen.OnceRun(v.A1, v.B2, v.B1, takes[gr.Tr.Events[v.B2].Obj]) }) {
				return
			}
		}
	}
	if pc != nil {
		lostSignals(gr, gen, pc, stop, st, keep)
	}
}

// LostSignal is a lost condition-variable signal a trace predicts (pattern
// deadlock/lost-signal): Sig is the Signal or Broadcast that woke a
// Cond.Wait of another goroutine, Entry that Wait's entry (the unlock of
// c.L it records before waiting). A schedule that runs Sig before Entry
// leaves the Wait with no signal to wake it.
type LostSignal struct{ Sig, Entry int32 }

// Events returns the lost signal's events in pattern order.
func (l LostSignal) Events() []int32 { return []int32{l.Sig, l.Entry} }

// LostSignals returns the lost signals of gr's trace: for each cond-wait,
// the signal or broadcast of its Cond that woke it (the latest one of
// another goroutine between the Wait's entry and its return). Whether
// the signal can come first is for schedule.Generator.LostSignal to
// decide, and whether nothing else wakes the Wait then for the replay.
func LostSignals(gr *ptg.Graph) []LostSignal {
	tr := gr.Tr
	evs := tr.Events
	var out []LostSignal
	for w, ev := range evs {
		if ev.Op != trace.CondWait || gr.Local[w] == 0 {
			continue
		}
		entry := gr.G(ev.G)[gr.Local[w]-1]
		if en := evs[entry]; !(en.Op == trace.Unlock || en.Op == trace.RUnlock) || en.Site != ev.Site {
			continue
		}
		for s := int32(w) - 1; s > entry; s-- {
			if e := evs[s]; e.Obj == ev.Obj && e.G != ev.G && (e.Op == trace.CondSignal || e.Op == trace.CondBroadcast) {
				out = append(out, LostSignal{Sig: s, Entry: entry})
				break
			}
		}
	}
	return out
}

// lostSignals predicts the lost signals of gr for the cond pattern p,
// each with its schedule, as deadlocks does.
func lostSignals(gr *ptg.Graph, gen *schedule.Generator, p *pattern.Pattern, stop func() bool, st *Stats, keep func(Anomaly) bool) {
	t := newTries(gr, stop, st, keep, maxDeadlockTries)
	// A key (signal site, Wait site) is tried at most maxDeadlockTries
	// times, so the order matters. Those whose waiter can miss the
	// signaller's state come first, the ones its guard sees
	// (SeenBeforeWait) last, since their replays find the waiter not
	// waiting, or woken by a later signal; then those with the fewest
	// signals of the Cond after theirs in the run: a later signal is
	// likely to wake the Wait that lost an earlier one (a producer's
	// among several), none can wake the last.
	ls := LostSignals(gr)
	type rank struct {
		seen  bool
		later int
	}
	ranks := make(map[LostSignal]rank, len(ls))
	evs := gr.Tr.Events
	// The signals and broadcasts of each candidate's Cond, in trace
	// order, found in one pass: counting those after each candidate by a
	// scan of the rest of the trace was quadratic (kelindar/event's
	// TestConcurrentHandlerRegistration, 10^6 events and many waits:
	// 44 s of CPU, the whole prediction).
	sigs := map[int32][]int32{}
	for _, l := range ls {
		sigs[evs[l.Sig].Obj] = nil
	}
	if len(sigs) > 0 {
		for i, e := range evs {
			if e.Op == trace.CondSignal || e.Op == trace.CondBroadcast {
				if list, ok := sigs[e.Obj]; ok {
					sigs[e.Obj] = append(list, int32(i))
				}
			}
		}
	}
	for _, l := range ls {
		r := rank{seen: SeenBeforeWait(gr, l)}
		list := sigs[evs[l.Sig].Obj]
		r.later = len(list) - sort.Search(len(list), func(i int) bool { return list[i] > l.Sig })
		ranks[l] = r
	}
	slices.SortStableFunc(ls, func(a, b LostSignal) int {
		ra, rb := ranks[a], ranks[b]
		if ra.seen != rb.seen {
			if rb.seen {
				return -1
			}
			return 1
		}
		return ra.later - rb.later
	})
	for _, l := range ls {
		if !t.try(p, l.Events(), func() (schedule.Schedule, error) { return gen.LostSignal(l.Sig, l.Entry) }) {
			return
		}
	}
}

// SeenBeforeWait reports whether the waiter of l reads, in its hold of the
// Cond's lock that the Wait's entry releases, state the signaller wrote
// before the signal, all of it under that lock: some variable (a map's by
// key) the signaller wrote before the signal is read there, and the last
// write before the signal of each such variable is in a hold of the lock.
// Then in any schedule that runs the signal before the entry the
// signaller's hold ends before the waiter's begins (the two cannot
// overlap, and the waiter's ends after the signal), so the waiter's guard
// re-check sees what the signal announces: the signal is no lost one if
// that guard decides the Wait (it may still wait for another producer,
// whose own signal then counts). A write outside the lock (an atomic
// count) can come after the waiter's read, and the signal can be lost.
func SeenBeforeWait(gr *ptg.Graph, l LostSignal) bool {
	evs := gr.Tr.Events
	lock := evs[l.Entry].Obj
	type key struct {
		obj int32
		arg int64
	}
	varOf := func(e trace.Event) key {
		if e.Op.HasKey() {
			return key{e.Obj, e.Arg}
		}
		return key{e.Obj, 0}
	}
	// The waiter's reads in its hold: back from the entry to the
	// acquisition of the lock (a Wait's return re-acquires it, recorded).
	read := map[key]bool{}
	wg := gr.G(evs[l.Entry].G)
	for k := gr.Local[l.Entry] - 1; k >= 0; k-- {
		e := evs[wg[k]]
		if e.Obj == lock && e.Op.IsAcquire() {
			break
		}
		if e.Op.IsAccess() && e.Op.Reads() {
			read[varOf(e)] = true
		}
	}
	// The signaller's last write of each such variable before the signal,
	// and whether it held the lock then.
	locked := map[key]bool{}
	held := 0
	sg := gr.G(evs[l.Sig].G)
	for _, x := range sg[:gr.Local[l.Sig]] {
		e := evs[x]
		switch {
		case e.Obj == lock && e.Op.IsAcquire():
			held++
		case e.Obj == lock && e.Op.IsRelease():
			held = max(held-1, 0)
		case e.Op.IsAccess() && e.Op.Writes() && read[varOf(e)]:
			locked[varOf(e)] = held > 0
		}
	}
	if len(locked) == 0 {
		return false
	}
	for _, ok := range locked {
		if !ok {
			return false
		}
	}
	return true
}
