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
	var p, pw, pc *pattern.Pattern
	for _, q := range pats {
		switch {
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
