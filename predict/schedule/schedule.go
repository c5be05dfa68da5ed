// Package schedule generates, for one predicted anomaly, a thread schedule
// that makes it happen.
//
// It is PECAN's section 6 (Algorithms 3 and 4), generalized to any
// pattern.
//
// The paper moves blocks of the recorded trace: the events that depend on a
// violation event go after its partner, and the outermost-lock (OML) block
// moves with them so that no lock is left half-moved. We get the same effect,
// for any number of pattern events, by replaying the recorded trace in a
// small simulator that keeps the recorded order wherever it can:
//
//   - the schedule is the recorded trace up to the first event that has to
//     move, then a simulation of the goroutines from there;
//   - only the events the anomaly needs run: the pattern events and
//     everything they depend on (program order and POR), so nodes "beyond
//     the violation point" are cut (the paper's last step);
//   - pattern event k may not run before event k-1 (the goroutine is held
//     at that point — the dependent nodes move after the partner);
//   - among the goroutines that may move, the earliest event in the recorded
//     trace goes first;
//   - when every goroutine is stuck and one waits for a lock another holds,
//     the holder is held back before its acquisition until the waiter has
//     released the lock (the OML move: the holder's whole critical section
//     is moved after the waiter's), or, if the holder simply was not needed
//     any further, it is allowed to run on to its release;
//   - for patterns whose events must be adjacent (races), event k runs only
//     when event k+1 can follow at once.
//
// Every schedule returned satisfies program order, POR and lock mutual
// exclusion and realizes the pattern (Check verifies this independently);
// when none is found the anomaly is infeasible in the hybrid model.
package schedule

import (
	"fmt"
	"slices"
	"sort"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/predict/ptg"
)

// maxRounds bounds the constraint refinements of one generation.
const maxRounds = 64

// Schedule is a generated schedule: the first Prefix events of the trace in
// trace order, then Tail. Keeping the prefix implicit keeps a schedule small
// however long the trace.
type Schedule struct {
	Prefix int32
	Tail   []int32
}

// Len returns the number of steps.
func (s Schedule) Len() int { return int(s.Prefix) + len(s.Tail) }

// At returns the event of step i (0-based).
func (s Schedule) At(i int) int32 {
	if i < int(s.Prefix) {
		return int32(i)
	}
	return s.Tail[i-int(s.Prefix)]
}

// Events returns all steps as one slice.
func (s Schedule) Events() []int32 {
	out := make([]int32, 0, s.Len())
	for i := int32(0); i < s.Prefix; i++ {
		out = append(out, i)
	}
	return append(out, s.Tail...)
}

// Generator generates schedules for one PTG, reusing its scratch space
// between calls. It is not safe for concurrent use.
type Generator struct {
	gr *ptg.Graph
	st state
}

// NewGenerator returns a Generator for gr.
func NewGenerator(gr *ptg.Graph) *Generator {
	return &Generator{gr: gr, st: newState(gr)}
}

// Generate returns a feasible schedule (ending with the last pattern event)
// in which the events of p occur in p's order — and back to back if
// adjacent — or an error saying why there is none.
func Generate(gr *ptg.Graph, p []int32, adjacent bool) (Schedule, error) {
	return NewGenerator(gr).Generate(p, adjacent)
}

// Generate is the package-level Generate on g's PTG.
func (g *Generator) Generate(p []int32, adjacent bool) (Schedule, error) {
	gr := g.gr
	if len(p) == 0 {
		return Schedule{}, fmt.Errorf("empty pattern instance")
	}
	evs := gr.Tr.Events
	for k := 1; k < len(p); k++ {
		a, b := p[k-1], p[k]
		if slices.Contains(p[:k], b) {
			return Schedule{}, fmt.Errorf("event %d used twice", b+1)
		}
		if evs[a].G == evs[b].G && gr.Local[a] > gr.Local[b] {
			return Schedule{}, fmt.Errorf("events %d and %d of one goroutine in reverse program order", a+1, b+1)
		}
		if gr.POR(b, a) {
			return Schedule{}, fmt.Errorf("event %d happens before event %d", b+1, a+1)
		}
		if adjacent && evs[a].G == evs[b].G && gr.Local[b] != gr.Local[a]+1 {
			return Schedule{}, fmt.Errorf("events %d and %d of one goroutine cannot be adjacent", a+1, b+1)
		}
	}
	s := &sim{gr: gr, p: p, adjacent: adjacent, ng: gr.NG, st: &g.st}
	// Pattern order: the goroutine of p[k] waits at p[k] for p[k-1].
	for k := 1; k < len(p); k++ {
		if evs[p[k]].G != evs[p[k-1]].G {
			s.holds = append(s.holds, hold{at: p[k], after: p[k-1]})
		}
	}
	for round := 0; round < maxRounds; round++ {
		sched, ok, fix := s.run()
		if ok {
			return sched, nil
		}
		if !fix {
			return Schedule{}, fmt.Errorf("no feasible schedule: %s", s.why)
		}
	}
	return Schedule{}, fmt.Errorf("no feasible schedule found in %d refinements: %s", maxRounds, s.why)
}

// hold says: the goroutine of event at may not execute at (or anything
// after it) until event after has executed.
type hold struct{ at, after int32 }

// state is the simulated execution state: positions and lock holders.
type state struct {
	gr      *ptg.Graph
	pos     []int32   // goroutine → local index of its next event
	owner   []int32   // lock → write holder + 1, 0 if none
	readers [][]int32 // lock → goroutines holding it in read mode (with repeats)
	touched []int32   // locks whose entries are set
	// WaitGroup counters: a Wait runs only at zero. (Happens-before alone
	// does not say so once a goroutine's own Add may follow the Wait.)
	wg       map[int32]int64
	wgEvents []int32 // the trace's Add and Done events
	// Whether a goroutine sleeps on an event or an object (sim.run's
	// waiters); all clear between runs.
	evWait, objWait waitBits
	// resumed counts the steps rounds took again from the previous
	// round's run (sim.resumable) rather than searched for.
	resumed int
}

// waitBits is a set of small non-negative keys (events, objects) that
// sim.run tests at every step. A key out of its range (or in a set not yet
// made) is always "maybe": the caller then looks it up (a Fork's object is
// a goroutine's index).
type waitBits struct{ w []uint64 }

func newWaitBits(n int) waitBits { return waitBits{make([]uint64, (n+63)/64)} }

func (b *waitBits) in(k int32) bool { return k >= 0 && int(k>>6) < len(b.w) }

func (b *waitBits) has(k int32) bool { return !b.in(k) || b.w[k>>6]&(1<<(k&63)) != 0 }

func (b *waitBits) set(k int32) {
	if b.in(k) {
		b.w[k>>6] |= 1 << (k & 63)
	}
}

func (b *waitBits) clear(k int32) {
	if b.in(k) {
		b.w[k>>6] &^= 1 << (k & 63)
	}
}

func newState(gr *ptg.Graph) state {
	n := len(gr.Tr.Objects)
	st := state{gr: gr, owner: make([]int32, n), readers: make([][]int32, n), wg: map[int32]int64{}}
	for i, e := range gr.Tr.Events {
		if e.Op == trace.WGAdd || e.Op == trace.WGDone {
			st.wgEvents = append(st.wgEvents, int32(i))
		}
	}
	return st
}

// wgDelta is the change an Add or Done makes to its WaitGroup's counter.
func wgDelta(e trace.Event) int64 {
	if e.Op == trace.WGDone {
		return -1
	}
	return e.Arg
}

// reset sets the state to the first w trace events run in trace order.
func (st *state) reset(w int32) {
	for _, l := range st.touched {
		st.owner[l] = 0
		st.readers[l] = st.readers[l][:0]
	}
	st.touched = st.touched[:0]
	pos, held := st.gr.StateAt(w)
	st.pos = pos
	clear(st.wg)
	for _, i := range st.wgEvents {
		if i >= w {
			break
		}
		e := st.gr.Tr.Events[i]
		st.wg[e.Obj] += wgDelta(e)
	}
	for _, h := range held {
		st.touched = append(st.touched, h.Lock)
		if h.Write {
			st.owner[h.Lock] = h.G + 1
		} else {
			st.readers[h.Lock] = append(st.readers[h.Lock], h.G)
		}
	}
	// A goroutine stopped between a cond-wait and its reacquisition holds
	// the lock already.
	for g, p := range pos {
		if p > 0 {
			row := st.gr.G(int32(g))
			if nx := st.reacquire(row[p-1]); nx >= 0 && nx == row[p] {
				st.take(nx)
			}
		}
	}
}

// reacquire returns the Lock (RLock) event that records how cond-wait e
// took its Cond's lock again, or -1 when e is not a cond-wait. Wait takes
// the lock before it returns, and the recorder records the cond-wait and
// then the lock, one gate each: from the cond-wait on, the goroutine holds
// the lock. A schedule that lets another goroutine acquire it in between
// cannot run (with a spin lock behind a sync.Locker, replay would wait for
// a stall: ants' pool spent 10 s on each such prediction).
func (st *state) reacquire(e int32) int32 {
	evs := st.gr.Tr.Events
	ev := evs[e]
	if ev.Op != trace.CondWait {
		return -1
	}
	row := st.gr.G(ev.G)
	l := int(st.gr.Local[e]) + 1
	if l >= len(row) {
		return -1
	}
	nx := row[l]
	if op := evs[nx].Op; (op == trace.Lock || op == trace.RLock) && evs[nx].Site == ev.Site {
		return nx
	}
	return -1
}

// take makes lock event e's goroutine a holder of its lock.
func (st *state) take(e int32) {
	ev := st.gr.Tr.Events[e]
	st.touched = append(st.touched, ev.Obj)
	if ev.Op == trace.Lock {
		st.owner[ev.Obj] = ev.G + 1
	} else if !slices.Contains(st.readers[ev.Obj], ev.G) {
		st.readers[ev.Obj] = append(st.readers[ev.Obj], ev.G)
	}
}

// acquirable reports whether acquire event e may run now; for a cond-wait,
// whether its reacquisition may.
func (st *state) acquirable(e int32) bool {
	switch op := st.gr.Tr.Events[e].Op; {
	case op == trace.CondWait:
		if nx := st.reacquire(e); nx >= 0 {
			e = nx
		}
	case !op.IsAcquire():
		return true // most events: no lookup of the goroutine's next
	}
	return st.blocker(e) < 0
}

// lockWait returns the lock that acquire event e (a cond-wait: its
// reacquisition) waits for, or -1 if it is acquirable (as acquirable).
func (st *state) lockWait(e int32) int32 {
	if st.acquirable(e) {
		return -1
	}
	if st.gr.Tr.Events[e].Op == trace.CondWait {
		if nx := st.reacquire(e); nx >= 0 {
			e = nx
		}
	}
	return st.gr.Tr.Events[e].Obj
}

func (st *state) executed(e int32) bool {
	return st.gr.Local[e] < st.pos[st.gr.Tr.Events[e].G]
}

// step runs event e (the next event of its goroutine).
func (st *state) step(e int32) {
	ev := st.gr.Tr.Events[e]
	st.pos[ev.G]++
	switch ev.Op {
	case trace.WGAdd, trace.WGDone:
		st.wg[ev.Obj] += wgDelta(ev)
	case trace.Lock:
		st.owner[ev.Obj] = ev.G + 1
		st.touched = append(st.touched, ev.Obj)
	case trace.CondWait:
		if nx := st.reacquire(e); nx >= 0 {
			st.take(nx)
		}
	case trace.Unlock:
		if st.owner[ev.Obj] == ev.G+1 {
			st.owner[ev.Obj] = 0
		}
	case trace.RLock:
		if l := st.gr.Local[e]; l > 0 && st.reacquire(st.gr.G(ev.G)[l-1]) == e {
			break // taken at the cond-wait
		}
		st.readers[ev.Obj] = append(st.readers[ev.Obj], ev.G)
		st.touched = append(st.touched, ev.Obj)
	case trace.RUnlock:
		r := st.readers[ev.Obj]
		if i := slices.Index(r, ev.G); i >= 0 {
			st.readers[ev.Obj] = slices.Delete(r, i, i+1)
		}
	}
}

// blocker returns a goroutine that keeps acquire event e from running, or -1.
func (st *state) blocker(e int32) int32 {
	ev := st.gr.Tr.Events[e]
	if o := st.owner[ev.Obj] - 1; o >= 0 && o != ev.G {
		return o
	}
	if ev.Op == trace.Lock {
		for _, r := range st.readers[ev.Obj] {
			if r != ev.G {
				return r
			}
		}
	}
	return -1
}

type sim struct {
	gr       *ptg.Graph
	p        []int32
	adjacent bool
	ng       int
	holds    []hold
	extra    []int32 // events that must also run (lock releases)
	why      string
	st       *state

	need   []int32 // goroutine → last local index it must execute
	gHolds [][]hold

	// The previous round's run, for the next to resume (resumable): its
	// window start, its steps, its need and how many holds it had.
	prevW     int32
	prevTail  []int32
	prevNeed  []int32
	prevHolds int
}

// closure computes need[] from the pattern events, extras and hold targets:
// everything they depend on through program order and POR.
func (s *sim) closure() {
	gr := s.gr
	evs := gr.Tr.Events
	pos := s.st.pos
	if s.need == nil {
		s.need = make([]int32, s.ng)
	}
	for g := range s.need {
		s.need[g] = pos[g] - 1
	}
	var work []int32
	scanned := slices.Clone(pos)
	want := func(e int32) {
		g := evs[e].G
		if gr.Local[e] > s.need[g] {
			s.need[g] = gr.Local[e]
			work = append(work, g)
		}
	}
	for _, e := range s.p {
		want(e)
	}
	for _, e := range s.extra {
		want(e)
	}
	for _, h := range s.holds {
		want(h.after)
	}
	for len(work) > 0 {
		g := work[len(work)-1]
		work = work[:len(work)-1]
		row := gr.G(g)
		for ; scanned[g] <= s.need[g]; scanned[g]++ {
			for _, src := range gr.Sources(row[scanned[g]]) {
				want(src)
			}
		}
	}
}

// run simulates once. It returns a schedule (ok), or fix == true if it
// added a constraint and wants another round, or neither (with s.why).
func (s *sim) run() (sched Schedule, ok, fix bool) {
	gr := s.gr
	evs := gr.Tr.Events
	st := s.st
	// Window start: the first event that may have to wait.
	w := s.p[0]
	for _, e := range s.p {
		w = min(w, e)
	}
	for _, h := range s.holds {
		w = min(w, h.at)
	}
	st.reset(w)
	if s.gHolds == nil {
		s.gHolds = make([][]hold, s.ng)
	}
	for g := range s.gHolds {
		s.gHolds[g] = s.gHolds[g][:0]
	}
	for _, h := range s.holds {
		g := evs[h.at].G
		s.gHolds[g] = append(s.gHolds[g], h)
	}
	oldNeed := append(s.prevNeed[:0], s.need...)
	s.closure()

	tail := make([]int32, 0, 64)
	nextPat := 0
	// A round after the first adds one constraint to the previous one and
	// runs again from the window's start: the steps up to where the
	// constraint can first change a choice are the previous run's, taken
	// again without the search for them. On skipmap's TestTyped (a
	// million events) 23 schedules took 333 rounds, 19.6 million steps,
	// four fifths of its prediction's CPU.
	if n := s.resumable(w, oldNeed); n > 0 {
		st.resumed += n
		for _, e := range s.prevTail[:n] {
			st.step(e)
			tail = append(tail, e)
			if nextPat < len(s.p) && e == s.p[nextPat] {
				nextPat++
			}
		}
	}
	s.prevNeed = oldNeed
	holds := len(s.holds) // before unstick adds one
	defer func() {
		s.prevW, s.prevTail, s.prevNeed, s.prevHolds = w, tail, append(s.prevNeed[:0], s.need...), holds
	}()
	// The goroutines with needed events left: a step looks at their next
	// events only, and drops those done. On ants's long traces a thousand
	// goroutines were looked at for each of a million steps, most with
	// nothing needed left, and that scan was a quarter of the check's CPU.
	// The step taken is the enabled event of least index, whatever order
	// the goroutines are looked at in (enabled has no side effects): they
	// are looked at in order of their next events (a heap), up to the
	// first enabled one. Most steps follow the recorded order, whose
	// least next event is enabled.
	var live goHeap
	for g := 0; g < s.ng; g++ {
		if st.pos[g] <= s.need[g] {
			live.push(int64(gr.G(int32(g))[st.pos[g]])<<32 | int64(g))
		}
	}
	var blocked []int64 // popped this step, not enabled
	// A goroutine whose next event acquires a lock that another holds
	// sleeps until an event on that lock is taken: enabled is false until
	// then whatever else happens (a lock's owner and readers change only
	// by its events, state.step and state.take). A thousand goroutines
	// waiting for the cache's lock, which the goroutine the schedule holds
	// back owns, were otherwise looked at every step (gcache's
	// TestLoaderFunc: 0.7 billion lookups, a third of a second of CPU per
	// schedule).
	lockWaiters := map[int32][]int64{} // lock → goroutines waiting for it
	// Each step looks up its event and its object: with goroutines asleep
	// the maps are never empty, and the two lookups were a quarter of the
	// simulation's CPU on skipmap's TestTyped (a thousand goroutines, a
	// million events: 0.95 of 3.96 s). A bit per event and per object
	// says whether anything sleeps on it; a lookup is made only then.
	wake := func(m map[int32][]int64, w *waitBits, k int32) {
		if !w.has(k) {
			return
		}
		w.clear(k)
		if ws, ok := m[k]; ok {
			for _, x := range ws {
				live.push(x)
			}
			delete(m, k)
		}
	}
	sleep := func(m map[int32][]int64, w *waitBits, k int32, x int64) {
		w.set(k)
		m[k] = append(m[k], x)
	}
	// Likewise a goroutine whose next event waits for another event (a
	// source in the graph, or a hold's release) sleeps until that event is
	// taken, and one at a WaitGroup's Wait with a positive counter until an
	// event on the WaitGroup: executed and the counter change only by
	// step. In gcache's TestLoaderPurgeVisitorFunc a thousand goroutines
	// waited on their fork or on the cache's singleflight, and popping and
	// pushing them back each step was a third of the check's CPU.
	eventWaiters := map[int32][]int64{} // event → goroutines waiting for it
	if st.evWait.w == nil {
		st.evWait, st.objWait = newWaitBits(len(evs)), newWaitBits(len(gr.Tr.Objects))
	}
	// The bits of those still asleep are cleared when the run ends: the
	// next run (and the next schedule) starts with none.
	defer func() {
		for k := range lockWaiters {
			st.objWait.clear(k)
		}
		for k := range eventWaiters {
			st.evWait.clear(k)
		}
	}()
	step := func(e int32) {
		st.step(e)
		wake(eventWaiters, &st.evWait, e)
		ev := &evs[e]
		wake(lockWaiters, &st.objWait, ev.Obj)
		if ev.Op == trace.CondWait {
			if nx := st.reacquire(e); nx >= 0 {
				wake(lockWaiters, &st.objWait, evs[nx].Obj)
			}
		}
	}
	for {
		best := int32(-1)
		if scanAll {
			// The definition, for the test that compares: every
			// goroutine with events needed, each step.
			for g := 0; g < s.ng; g++ {
				if st.pos[g] <= s.need[g] {
					if e := gr.G(int32(g))[st.pos[g]]; (best < 0 || e < best) && s.enabled(e, nextPat) {
						best = e
					}
				}
			}
			live = live[:0]
		}
		for len(live) > 0 {
			x := live.pop()
			e, g := int32(x>>32), int32(x)
			if st.pos[g] > s.need[g] {
				continue // nothing needed left
			}
			if cur := gr.G(g)[st.pos[g]]; cur != e {
				// Stale: g moved on (a pattern event taken at once).
				live.push(int64(cur)<<32 | int64(g))
				continue
			}
			if l := st.lockWait(e); l >= 0 {
				sleep(lockWaiters, &st.objWait, l, x)
				continue
			}
			if s.enabled(e, nextPat) {
				best = e
				break
			}
			if w := s.waitFor(e); w >= 0 {
				sleep(eventWaiters, &st.evWait, w, x)
				continue
			}
			if ev := &evs[e]; ev.Op == trace.WGWait && st.wg[ev.Obj] > 0 {
				sleep(lockWaiters, &st.objWait, ev.Obj, x)
				continue
			}
			blocked = append(blocked, x)
		}
		for _, x := range blocked {
			live.push(x)
		}
		blocked = blocked[:0]
		if best < 0 {
			return Schedule{}, false, s.unstick()
		}
		step(best)
		if g := evs[best].G; !scanAll && st.pos[g] <= s.need[g] {
			live.push(int64(gr.G(g)[st.pos[g]])<<32 | int64(g))
		}
		tail = append(tail, best)
		if nextPat < len(s.p) && best == s.p[nextPat] {
			nextPat++
			for s.adjacent && nextPat < len(s.p) {
				nx := s.p[nextPat]
				if !s.enabled(nx, nextPat) {
					s.why = fmt.Sprintf("event %d cannot follow event %d at once", nx+1, s.p[nextPat-1]+1)
					return Schedule{}, false, false
				}
				step(nx)
				tail = append(tail, nx)
				nextPat++
			}
			if nextPat == len(s.p) {
				return Schedule{Prefix: w, Tail: tail}, true, false
			}
		}
	}
}

// resumable returns how many of the previous run's steps the run from
// window start w takes again as they were: the step taken is the enabled
// event of least index among the goroutines with needed events left, and
// a round's new constraint (a hold, an extra release) only disables
// events (the hold) and adds needed events (need grows, from the same
// window start). The steps before the first that could differ are the
// same: before a goroutine whose need grew runs past its old need (it is
// then looked at, and was not), and before the held goroutine takes its
// held event (or, with adjacency, a pattern event is taken: its
// partner's holds decide it). 0 for the first round, a new window start,
// or the definition's run (scanAll).
func (s *sim) resumable(w int32, oldNeed []int32) int {
	if scanAll || s.prevTail == nil || w != s.prevW || len(oldNeed) != len(s.need) {
		return 0
	}
	gr, st := s.gr, s.st
	evs := gr.Tr.Events
	n := len(s.prevTail)
	grown := false
	for g, nd := range s.need {
		if nd > oldNeed[g] {
			if st.pos[g] > oldNeed[g] {
				return 0 // looked at from the start now, not before
			}
			grown = true
		}
	}
	// Each new hold's release: the step of the previous run that took it
	// (-1 before the window: run from the start; n if not taken).
	newHolds := s.holds[s.prevHolds:]
	after := make([]int, len(newHolds))
	for i, h := range newHolds {
		after[i] = n
		if h.after < w {
			after[i] = -1 // the prefix runs every event before the window
		} else if k := slices.Index(s.prevTail, h.after); k >= 0 {
			after[i] = k
		}
	}
	for j, e := range s.prevTail[:n] {
		ev := evs[e]
		l := gr.Local[e]
		if grown && l > oldNeed[ev.G] {
			// Not reached: the old run took only needed events. Kept
			// for safety.
			return j
		}
		if grown && l == oldNeed[ev.G] && s.need[ev.G] > oldNeed[ev.G] {
			// ev.G runs past its old need after this step.
			n = min(n, j+1)
		}
		for i, h := range newHolds {
			if evs[h.at].G == ev.G && l >= gr.Local[h.at] && after[i] >= j {
				return min(n, j)
			}
		}
		if s.adjacent && slices.Contains(s.p, e) {
			return min(n, j)
		}
		if j+1 >= n {
			break
		}
	}
	return n
}

// waitFor returns an event not yet taken that e cannot run before,
// whatever else happens (one of its sources, or a hold's release), or -1:
// the conditions enabled tests first, apart from the pattern's order.
func (s *sim) waitFor(e int32) int32 {
	gr, st := s.gr, s.st
	for _, src := range gr.Sources(e) {
		if !st.executed(src) {
			return src
		}
	}
	l := gr.Local[e]
	for _, h := range s.gHolds[gr.Tr.Events[e].G] {
		if l >= gr.Local[h.at] && !st.executed(h.after) {
			return h.after
		}
	}
	return -1
}

func (s *sim) enabled(e int32, nextPat int) bool {
	gr := s.gr
	st := s.st
	ev := gr.Tr.Events[e]
	for _, src := range gr.Sources(e) {
		if !st.executed(src) {
			return false
		}
	}
	if !st.acquirable(e) {
		return false
	}
	if ev.Op == trace.WGWait && st.wg[ev.Obj] > 0 {
		return false
	}
	l := gr.Local[e]
	for _, h := range s.gHolds[ev.G] {
		if l >= gr.Local[h.at] && !st.executed(h.after) {
			return false
		}
	}
	// Pattern events run in order; with adjacency, p[k] only when p[k+1]
	// can follow at once.
	if nextPat < len(s.p) && e == s.p[nextPat] {
		if s.adjacent && nextPat+1 < len(s.p) {
			nx := s.p[nextPat+1]
			ng := gr.Tr.Events[nx].G
			if ng != ev.G {
				if st.pos[ng] != gr.Local[nx] {
					return false
				}
				for _, src := range gr.Sources(nx) {
					if src != e && !st.executed(src) {
						return false
					}
				}
				acq := nx
				if r := st.reacquire(nx); r >= 0 {
					acq = r
				}
				if gr.Tr.Events[acq].Op.IsAcquire() {
					if b := st.blocker(acq); b >= 0 && b != ev.G {
						return false
					}
				}
				for _, h := range s.gHolds[ng] {
					if gr.Local[nx] >= gr.Local[h.at] && h.after != e && !st.executed(h.after) {
						return false
					}
				}
			}
		}
		return true
	}
	for k := nextPat; k < len(s.p); k++ {
		if e == s.p[k] {
			return false
		}
	}
	return true
}

// unstick looks at a stuck state and adds one constraint that may get the
// simulation past it. It reports whether it did.
func (s *sim) unstick() bool {
	gr := s.gr
	evs := gr.Tr.Events
	st := s.st
	// Goroutines waiting for a lock, earliest event first.
	type wait struct{ e, holder int32 }
	var waits []wait
	for g := 0; g < s.ng; g++ {
		if st.pos[g] > s.need[g] {
			continue
		}
		e := gr.G(int32(g))[st.pos[g]]
		if r := st.reacquire(e); r >= 0 {
			e = r
		}
		if evs[e].Op.IsAcquire() {
			if h := st.blocker(e); h >= 0 {
				waits = append(waits, wait{e, h})
			}
		}
	}
	sort.Slice(waits, func(i, j int) bool { return waits[i].e < waits[j].e })
	// A Wait blocked by another goroutine's Add: hold that Add until after
	// the Wait (the goroutine that adds to the WaitGroup itself).
	for g := 0; g < s.ng; g++ {
		if st.pos[g] > s.need[g] {
			continue
		}
		e := gr.G(int32(g))[st.pos[g]]
		ev := evs[e]
		if ev.Op != trace.WGWait || st.wg[ev.Obj] <= 0 {
			continue
		}
		for _, a := range st.wgEvents {
			ae := evs[a]
			if ae.Obj != ev.Obj || ae.Op != trace.WGAdd || ae.Arg <= 0 || ae.G == ev.G || !st.executed(a) {
				continue
			}
			nh := hold{at: a, after: e}
			if !slices.Contains(s.holds, nh) {
				s.holds = append(s.holds, nh)
				return true
			}
		}
	}
	for _, w := range waits {
		lock := evs[w.e].Obj
		h := w.holder
		acq := s.heldAcquire(h, lock)
		if acq < 0 {
			continue
		}
		if st.pos[h] > s.need[h] {
			// The holder was not needed any further: let it run to its release.
			if rel := s.release(acq); rel >= 0 && !slices.Contains(s.extra, rel) {
				s.extra = append(s.extra, rel)
				return true
			}
			continue
		}
		// Move the holder's critical section after the waiter's (OML move).
		rel := s.release(w.e)
		if rel < 0 {
			continue
		}
		nh := hold{at: acq, after: rel}
		if slices.Contains(s.holds, nh) {
			continue
		}
		s.holds = append(s.holds, nh)
		return true
	}
	var stuck []string
	for g := 0; g < s.ng; g++ {
		if st.pos[g] <= s.need[g] {
			e := gr.G(int32(g))[st.pos[g]]
			stuck = append(stuck, fmt.Sprintf("%s at event %d (%s)", gr.Tr.Goroutines[g], e+1, evs[e].Op))
		}
	}
	s.why = "every goroutine is blocked: " + fmt.Sprint(stuck)
	return false
}

// heldAcquire returns the event at which goroutine g acquired lock, among
// the locks it holds now.
func (s *sim) heldAcquire(g, lock int32) int32 {
	gr := s.gr
	pos := s.st.pos[g]
	if pos == 0 {
		return -1
	}
	row := gr.G(g)
	if int(pos) < len(row) {
		if w := row[pos-1]; s.st.reacquire(w) == row[pos] && gr.Tr.Events[row[pos]].Obj == lock {
			return w // holding it since the cond-wait
		}
	}
	res := int32(-1)
	gr.HeldAcquires(row[pos-1], func(acq, l int32, _ bool) {
		if l == lock && res < 0 {
			res = acq
		}
	})
	return res
}

// release returns the event that releases the acquisition made at acq (a
// cond-wait: its reacquisition), or -1. Acquisitions of the lock in the
// same mode taken since (a recursive read lock) are released first: the
// goroutine holds the lock until its count in that mode is back to zero.
func (s *sim) release(acq int32) int32 {
	gr := s.gr
	evs := gr.Tr.Events
	if r := s.st.reacquire(acq); r >= 0 {
		acq = r
	}
	a := evs[acq]
	row := gr.G(a.G)
	depth := 1
	for l := gr.Local[acq] + 1; int(l) < len(row); l++ {
		e := row[l]
		ev := evs[e]
		switch {
		case ev.Obj != a.Obj:
		case ev.Op == a.Op:
			depth++
		case ev.Op.IsRelease() && (ev.Op == trace.Unlock) == (a.Op == trace.Lock):
			if depth--; depth == 0 {
				return e
			}
		}
	}
	return -1
}

// Deadlock returns a schedule that drives a lock-order inversion into its
// deadlock: goroutine G1 took lock A at a1 and asks for B at b1, G2 took
// B at b2 and asks for A at a2. The schedule runs G1 up to just before
// b1 (holding A) and G2 up to just before a2 (holding B), each as the
// simulator finds feasible, and ends with b1 and a2: the two
// acquisitions that cannot complete. It returns an error when no feasible
// schedule reaches that state (happens-before, or a lock both would need,
// forces one goroutine's pair before the other's).
func (g *Generator) Deadlock(a1, b2, b1, a2 int32) (Schedule, error) {
	gr := g.gr
	evs := gr.Tr.Events
	g1, g2 := evs[b1].G, evs[a2].G
	if g1 == g2 || evs[a1].G != g1 || evs[b2].G != g2 ||
		gr.Local[a1] >= gr.Local[b1] || gr.Local[b2] >= gr.Local[a2] {
		return Schedule{}, fmt.Errorf("events %d %d %d %d are no lock-order inversion", a1+1, b2+1, b1+1, a2+1)
	}
	sched, err := g.stopBefore(b1, a2, func() error { return g.stuck(a1, b2, b1, a2) })
	if err != nil {
		return Schedule{}, err
	}
	sched.Tail = append(sched.Tail, b1, a2)
	return sched, nil
}

// stuck verifies that the schedule just checked (stopBefore) leaves b1's
// and a2's goroutines, stopped at those acquisitions, each holding, from
// a1 and b2, the lock the other asks for in a mode that excludes it.
func (g *Generator) stuck(a1, b2, b1, a2 int32) error {
	gr := g.gr
	evs := gr.Tr.Events
	st := &g.st
	holds := func(acq int32, against int32) bool {
		a, x := evs[acq], evs[against]
		if st.pos[a.G] <= gr.Local[acq] {
			return false // not taken yet
		}
		// Taken at acq and not released since: the goroutine's next
		// release of that lock, if any, has not run.
		row := gr.G(a.G)
		for l := gr.Local[acq] + 1; l < st.pos[a.G]; l++ {
			if e := evs[row[l]]; e.Obj == a.Obj && e.Op.IsRelease() {
				return false
			}
		}
		return a.Op == trace.Lock || x.Op == trace.Lock // one of them writes
	}
	if !holds(a1, a2) || !holds(b2, b1) {
		return fmt.Errorf("the schedule does not leave each goroutine holding the lock the other asks for")
	}
	return nil
}

// OnceRun returns a schedule that drives a deadlock through sync.Once:
// goroutine G1 holds lock A from a1 and calls Do at b1 on a Once (a lock
// event of the Once, rt's OnceDo); b2 is another goroutine's call of Do
// on it, which found the function run in the recorded run. takes are
// every lock event of the Once in the trace. The schedule runs G1 up to
// just before b1, holding a1's lock, and G2 up to just before b2, with
// no call of Do on the Once run yet (its function not started), as the
// simulator finds feasible, and ends with b2 (which now runs the
// function) and b1 (which waits for it). It returns an error when no
// feasible schedule reaches that state.
func (g *Generator) OnceRun(a1, b2, b1 int32, takes []int32) (Schedule, error) {
	gr := g.gr
	evs := gr.Tr.Events
	g1, g2 := evs[b1].G, evs[b2].G
	if g1 == g2 || evs[a1].G != g1 || evs[b1].Obj != evs[b2].Obj || evs[b1].Op != trace.Lock || evs[b2].Op != trace.Lock ||
		gr.Local[a1] >= gr.Local[b1] || gr.Local[b2] == 0 {
		return Schedule{}, fmt.Errorf("events %d %d %d are no deadlock through a Once", a1+1, b2+1, b1+1)
	}
	sched, err := g.stopBefore(b1, b2, func() error {
		st := &g.st
		row := gr.G(g1)
		for l := gr.Local[a1] + 1; l < st.pos[g1]; l++ {
			if e := evs[row[l]]; e.Obj == evs[a1].Obj && e.Op.IsRelease() {
				return fmt.Errorf("the schedule does not leave goroutine %d holding the lock of event %d", g1, a1+1)
			}
		}
		for _, t := range takes {
			if st.pos[evs[t].G] > gr.Local[t] {
				return fmt.Errorf("the schedule runs a call of Do on the Once (event %d) before event %d", t+1, b2+1)
			}
		}
		return nil
	})
	if err != nil {
		return Schedule{}, err
	}
	sched.Tail = append(sched.Tail, b2, b1)
	return sched, nil
}

// RWCycle returns a schedule that drives a recursive read lock behind a
// waiting writer into its deadlock: goroutine G1 read-locked an RWMutex
// at r1 and read-locks it again at r1b, G2 write-locks it at w2. The
// schedule runs G1 up to just before r1b (holding r1's read lock) and G2
// up to just before w2, as the simulator finds feasible, and ends with w2
// (the writer, which waits for r1's read lock and keeps new readers out)
// and then r1b (a new reader, which waits behind it). It returns an error
// when no feasible schedule reaches that state.
func (g *Generator) RWCycle(r1, w2, r1b int32) (Schedule, error) {
	gr := g.gr
	evs := gr.Tr.Events
	g1, g2 := evs[r1b].G, evs[w2].G
	if g1 == g2 || evs[r1].G != g1 || evs[r1].Obj != evs[r1b].Obj || evs[w2].Obj != evs[r1].Obj ||
		evs[r1].Op != trace.RLock || evs[r1b].Op != trace.RLock || evs[w2].Op != trace.Lock ||
		gr.Local[r1] >= gr.Local[r1b] || gr.Local[w2] == 0 {
		return Schedule{}, fmt.Errorf("events %d %d %d are no recursive read lock and writer", r1+1, w2+1, r1b+1)
	}
	sched, err := g.stopBefore(r1b, w2, func() error {
		// G1 holds a read lock of it there (r1's, or one taken since).
		readers := 0
		for _, e := range gr.G(g1)[:g.st.pos[g1]] {
			if ev := evs[e]; ev.Obj == evs[r1].Obj && ev.Op == trace.RLock {
				readers++
			} else if ev.Obj == evs[r1].Obj && ev.Op == trace.RUnlock {
				readers--
			}
		}
		if readers <= 0 {
			return fmt.Errorf("the schedule does not leave goroutine %d holding the read lock of event %d", g1, r1+1)
		}
		return nil
	})
	if err != nil {
		return Schedule{}, err
	}
	sched.Tail = append(sched.Tail, w2, r1b)
	return sched, nil
}

// LostSignal returns a schedule that loses signal sig, which woke the
// Cond.Wait whose entry (the unlock of c.L) is entry in the recorded run:
// it runs sig's goroutine up to sig and entry's up to entry, sig first,
// as the simulator finds feasible, and ends with entry. The Wait that
// follows has missed its signal. It returns an error when no feasible
// schedule runs sig before entry.
func (g *Generator) LostSignal(sig, entry int32) (Schedule, error) {
	gr := g.gr
	evs := gr.Tr.Events
	if evs[sig].G == evs[entry].G || !(evs[sig].Op == trace.CondSignal || evs[sig].Op == trace.CondBroadcast) {
		return Schedule{}, fmt.Errorf("events %d %d are no signal and Wait entry", sig+1, entry+1)
	}
	p := []int32{sig, entry}
	sched, err := g.Generate(p, false)
	if err != nil {
		return Schedule{}, err
	}
	if err := check(&g.st, gr, sched, p, false); err != nil {
		return Schedule{}, err
	}
	return sched, nil
}

// EarlyWait returns a schedule that runs a WaitGroup's Wait before the
// Add from 0 it blocked on in the recorded run: it stops the waiter just
// before entry (the Wait's entry, the model's write) and add's goroutine
// just before add, as the simulator finds feasible, and ends with entry,
// wait (the Wait's return) and add. The replay omits the entry, since a
// Wait on 0 does not block, and passes the turn on from the Wait only
// when it returns: the Add comes after a Wait that did not wait for it.
// It returns an error when no feasible schedule stops both there.
func (g *Generator) EarlyWait(entry, wait, add int32) (Schedule, error) {
	gr := g.gr
	evs := gr.Tr.Events
	if evs[entry].G != evs[wait].G || evs[wait].G == evs[add].G || evs[wait].Op != trace.WGWait || evs[add].Op != trace.WGAdd ||
		gr.Local[entry] == 0 || gr.Local[add] == 0 {
		return Schedule{}, fmt.Errorf("events %d %d %d are no Wait and Add", entry+1, wait+1, add+1)
	}
	sched, err := g.stopBefore(entry, add, nil)
	if err != nil {
		return Schedule{}, err
	}
	sched.Tail = append(sched.Tail, entry, wait, add)
	return sched, nil
}

// ObservedEarlyWait returns a schedule that runs a WaitGroup's Wait that
// did not block in the recorded run (its counter was at 0) before add, a
// later Add from 0 of another goroutine: the recorded order, which the
// simulator finds feasible only when nothing orders the Add after the
// Wait's return (a WaitGroup reused for a later round). It stops the
// waiter just before wait and add's goroutine just before add, and ends
// with wait and add. It returns an error when no feasible schedule stops
// both there.
func (g *Generator) ObservedEarlyWait(wait, add int32) (Schedule, error) {
	gr := g.gr
	evs := gr.Tr.Events
	if evs[wait].G == evs[add].G || evs[wait].Op != trace.WGWait || evs[add].Op != trace.WGAdd || gr.Local[wait] == 0 || gr.Local[add] == 0 {
		return Schedule{}, fmt.Errorf("events %d %d are no Wait and Add", wait+1, add+1)
	}
	sched, err := g.stopBefore(wait, add, nil)
	if err != nil {
		return Schedule{}, err
	}
	sched.Tail = append(sched.Tail, wait, add)
	return sched, nil
}

// Leak returns a schedule that strands channel operation stranded: it
// runs the goroutine of sel (a select's case) up to just before sel and
// the goroutine of stranded up to just before stranded, as the simulator
// finds feasible, and ends with sel and stranded, which the replay treats
// as the select taking another branch and the partner blocking. It
// returns an error when no feasible schedule reaches that state (one of
// them must run first).
func (g *Generator) Leak(sel, stranded int32) (Schedule, error) {
	gr := g.gr
	evs := gr.Tr.Events
	g1, g2 := evs[sel].G, evs[stranded].G
	if g1 == g2 || gr.Local[sel] == 0 || gr.Local[stranded] == 0 {
		return Schedule{}, fmt.Errorf("events %d %d are no select case and partner", sel+1, stranded+1)
	}
	sched, err := g.stopBefore(sel, stranded, nil)
	if err != nil {
		return Schedule{}, err
	}
	sched.Tail = append(sched.Tail, sel, stranded)
	return sched, nil
}

// Stolen returns a schedule that strands channel operation stranded by
// letting thief, another goroutine's operation of its direction on the
// same unbuffered channel, take partner, stranded's match in the
// recording: it runs the three goroutines up to just before their
// operations, as the simulator finds feasible, and ends with the send of
// the two (thief and partner) first, so that the replay hands the send's
// turn on at its gate and the receive then takes it, and then stranded,
// which blocks. It returns an error when no feasible schedule reaches
// that state.
func (g *Generator) Stolen(thief, stranded, partner int32) (Schedule, error) {
	gr := g.gr
	evs := gr.Tr.Events
	gt, ga, gb := evs[thief].G, evs[stranded].G, evs[partner].G
	if gt == ga || gt == gb || ga == gb || evs[thief].Op != evs[stranded].Op || evs[thief].Obj != evs[stranded].Obj ||
		evs[partner].Obj != evs[stranded].Obj || evs[partner].Op == evs[stranded].Op ||
		gr.Local[thief] == 0 || gr.Local[stranded] == 0 || gr.Local[partner] == 0 {
		return Schedule{}, fmt.Errorf("events %d %d %d are no thief, stranded operation and partner", thief+1, stranded+1, partner+1)
	}
	sched, err := g.stopThree([3]int32{thief, stranded, partner})
	if err != nil {
		return Schedule{}, err
	}
	if evs[thief].Op == trace.Send {
		sched.Tail = append(sched.Tail, thief, partner, stranded)
	} else {
		sched.Tail = append(sched.Tail, partner, thief, stranded)
	}
	return sched, nil
}

// StopLeak returns a schedule that strands stranded, the recorded partner
// of sel, a case of a select, by having the select leave through a stop
// case: stop, a third goroutine's close of the channel that case
// receives from or its send on it, runs first. It runs the three
// goroutines up to just before their events, as the simulator finds
// feasible, and ends with stop (a close completes; an unbuffered send
// passes the turn on at its gate and waits for its receiver), sel (whose
// select then finds the stop channel closed or its sender waiting, and
// its case's partner held at its gate) and stranded, which blocks. It
// returns an error when no feasible schedule reaches that state: the
// stop happens after the select.
func (g *Generator) StopLeak(stop, sel, stranded int32) (Schedule, error) {
	gr := g.gr
	evs := gr.Tr.Events
	gc, gs, gp := evs[stop].G, evs[sel].G, evs[stranded].G
	if gc == gs || gc == gp || gs == gp || (evs[stop].Op != trace.Close && evs[stop].Op != trace.Send) || evs[sel].Obj != evs[stranded].Obj ||
		gr.Local[stop] == 0 || gr.Local[sel] == 0 || gr.Local[stranded] == 0 {
		return Schedule{}, fmt.Errorf("events %d %d %d are no stop, select case and partner", stop+1, sel+1, stranded+1)
	}
	sched, err := g.stopThree([3]int32{stop, sel, stranded})
	if err != nil {
		return Schedule{}, err
	}
	sched.Tail = append(sched.Tail, stop, sel, stranded)
	return sched, nil
}

// stopThree returns a schedule, feasible as the simulator finds, that
// runs the goroutines of three events (of three goroutines) up to just
// before them, trying the orders of their stops in turn. It returns why
// the last try failed.
func (g *Generator) stopThree(at [3]int32) (Schedule, error) {
	gr := g.gr
	evs := gr.Tr.Events
	var why error
	for _, perm := range [][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}} {
		p := make([]int32, 3)
		for k, j := range perm {
			e := at[j]
			p[k] = gr.G(evs[e].G)[gr.Local[e]-1]
		}
		sched, err := g.Generate(p, false)
		if err == nil {
			err = check(&g.st, gr, sched, p, false)
		}
		if err == nil {
			for _, e := range at {
				if g.st.pos[evs[e].G] != gr.Local[e] {
					err = fmt.Errorf("the schedule does not stop the goroutines at events %d, %d and %d", at[0]+1, at[1]+1, at[2]+1)
				}
			}
		}
		if err != nil {
			why = err
			continue
		}
		return sched, nil
	}
	return Schedule{}, why
}

// stopBefore returns a schedule, feasible as the simulator finds, that
// runs x's goroutine up to just before x and y's up to just before y,
// trying x's goroutine's stop first, then y's, and that passes more (run
// on the simulator's state after the schedule; nil: nothing more). It
// returns why the last try failed.
func (g *Generator) stopBefore(x, y int32, more func() error) (Schedule, error) {
	gr := g.gr
	evs := gr.Tr.Events
	gx, gy := evs[x].G, evs[y].G
	prex := gr.G(gx)[gr.Local[x]-1]
	prey := gr.G(gy)[gr.Local[y]-1]
	var why error
	for _, p := range [][]int32{{prex, prey}, {prey, prex}} {
		sched, err := g.Generate(p, false)
		if err == nil {
			err = check(&g.st, gr, sched, p, false)
		}
		if err == nil && (g.st.pos[gx] != gr.Local[x] || g.st.pos[gy] != gr.Local[y]) {
			err = fmt.Errorf("the schedule does not stop the goroutines at events %d and %d", x+1, y+1)
		}
		if err == nil && more != nil {
			err = more()
		}
		if err != nil {
			why = err
			continue
		}
		return sched, nil
	}
	return Schedule{}, why
}

// maxCloseFirstSteps bounds the simulation of CloseFirst.
const maxCloseFirstSteps = 1 << 18

// CloseFirst returns a schedule that runs close, a close of a channel,
// before send, another goroutine's send on it that happens before close
// in the recorded run only through the channel's own matches (the send
// was received, and the closer waited for a receive of its own): another
// schedule holds send's goroutine at send, and the channel's receivers
// take the other sends in the order they come, so the closer may get
// through. The schedule is the recorded trace up to send, then the
// events in trace order as they can run, with these rules for the
// channel: a receive takes the oldest send offered and not yet taken; an
// unbuffered sender goes on only once its send is taken; a receiver that
// took another send than in the recording stops after it (what it does
// with the value is not the recorded run's). Other happens-before edges
// and locks hold as in the recording. It ends with close and send (the
// send then panics: send on closed channel), or returns an error when
// the closer cannot get to its close that way.
func (g *Generator) CloseFirst(send, close int32) (Schedule, error) {
	gr := g.gr
	evs := gr.Tr.Events
	sv, cv := evs[send], evs[close]
	if sv.Op != trace.Send || cv.Op != trace.Close || sv.Obj != cv.Obj || sv.G == cv.G || send > close ||
		sv.Flags&trace.FlagClosed != 0 {
		return Schedule{}, fmt.Errorf("events %d %d are no send and a later close of its channel", send+1, close+1)
	}
	ch := sv.Obj
	unbuffered := sv.Arg == 0
	// The recorded matches: the k-th send and the k-th receive.
	var sends, recvs []int32
	for i, e := range evs {
		if e.Obj != ch || e.Flags&trace.FlagClosed != 0 {
			continue
		}
		switch e.Op {
		case trace.Send:
			sends = append(sends, int32(i))
		case trace.Recv:
			recvs = append(recvs, int32(i))
		}
	}
	matched := map[int32]int32{} // receive → its recorded send
	for k := range min(len(sends), len(recvs)) {
		matched[recvs[k]] = sends[k]
	}
	isMatch := func(from, to int32) bool {
		// A POR edge of the channel's matching: send → its receive, or
		// receive → the event after an unbuffered send.
		f, t := evs[from], evs[to]
		if f.Obj != ch || f.Flags&trace.FlagClosed != 0 {
			return false
		}
		if f.Op == trace.Send && t.Obj == ch && t.Op == trace.Recv && t.Flags&trace.FlagClosed == 0 {
			return true
		}
		if f.Op == trace.Recv && unbuffered {
			if l := gr.Local[to]; l > 0 {
				prev := evs[gr.G(t.G)[l-1]]
				return prev.Obj == ch && prev.Op == trace.Send
			}
		}
		return false
	}
	st := &g.st
	st.reset(send)
	// The channel's state at send: the sends offered and not yet taken.
	var offered []int32
	taken := 0
	for _, r := range recvs {
		if r < send {
			taken++
		}
	}
	for _, s := range sends {
		if s < send {
			offered = append(offered, s)
		}
	}
	if taken > len(offered) {
		return Schedule{}, fmt.Errorf("receives before the matching sends on the channel of event %d", send+1)
	}
	offered = offered[taken:]
	waiting := map[int32]int32{} // unbuffered sender → its send not yet taken
	for _, s := range offered {
		if unbuffered {
			waiting[evs[s].G] = s
		}
	}
	frozen := map[int32]bool{sv.G: true}
	// need: per goroutine, the local index of the last event the close
	// needs (-1: none): the closer's events up to it and, transitively,
	// the events their happens-before edges other than the channel's
	// matches come from. A needed send waiting for a receiver, or a
	// needed receive with nothing offered, then needs a partner: the next
	// receive (send) on the channel of the goroutine that has the
	// earliest. Only needed events run: another sender's value, offered,
	// would be taken instead of the one the closer waits on.
	need := make([]int32, gr.NG)
	for i := range need {
		need[i] = -1
	}
	var active []int32 // the goroutines with a need: the only ones a step looks at
	demand := func(e int32) {
		queue := []int32{e}
		for len(queue) > 0 {
			x := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			h := evs[x].G
			from := max(need[h]+1, st.pos[h])
			if gr.Local[x] < from {
				continue
			}
			if need[h] < 0 {
				active = append(active, h)
			}
			need[h] = gr.Local[x]
			row := gr.G(h)
			for l := from; l <= gr.Local[x]; l++ {
				for _, z := range gr.Sources(row[l]) {
					if !st.executed(z) && !isMatch(z, row[l]) {
						queue = append(queue, z)
					}
				}
			}
		}
	}
	// partner demands the next operation op on the channel of the
	// goroutine that has the earliest, other than g's; false if there is
	// none not needed already.
	partner := func(g int32, op trace.Op) bool {
		best := int32(-1)
		for h := range int32(gr.NG) {
			if h == g || frozen[h] {
				continue
			}
			for _, e := range gr.G(h)[st.pos[h]:] {
				if e2 := evs[e]; e2.Obj == ch && e2.Op == op && e2.Flags&trace.FlagClosed == 0 {
					if best < 0 || e < best {
						best = e
					}
					break
				}
			}
		}
		if best < 0 || gr.Local[best] <= need[evs[best].G] {
			return false // none, or needed already: demanding it changes nothing
		}
		demand(best)
		return true
	}
	demand(close)
	var tail []int32
	ready := func(e int32) bool {
		ev := evs[e]
		if _, ok := waiting[ev.G]; ok {
			return false
		}
		if ev.Obj == ch && ev.Op == trace.Recv && ev.Flags&trace.FlagClosed == 0 && len(offered) == 0 {
			return false
		}
		for _, x := range gr.Sources(e) {
			if !st.executed(x) && !isMatch(x, e) {
				return false
			}
		}
		return st.acquirable(e)
	}
	for steps := 0; !st.executed(close); steps++ {
		if steps > maxCloseFirstSteps {
			return Schedule{}, fmt.Errorf("the close of event %d is not reached in %d steps", close+1, maxCloseFirstSteps)
		}
		if need[sv.G] >= gr.Local[send] {
			return Schedule{}, fmt.Errorf("the close of event %d needs the send of event %d", close+1, send+1)
		}
		best := int32(-1)
		for _, h := range active {
			row := gr.G(h)
			if frozen[h] || st.pos[h] > need[h] || int(st.pos[h]) >= len(row) {
				continue
			}
			if e := row[st.pos[h]]; (best < 0 || e < best) && ready(e) {
				best = e
			}
		}
		if best < 0 {
			// A needed operation on the channel lacks its partner.
			found := false
			for _, h := range active {
				if frozen[h] || st.pos[h] > need[h] || int(st.pos[h]) >= len(gr.G(h)) {
					continue
				}
				e := evs[gr.G(h)[st.pos[h]]]
				if _, ok := waiting[h]; ok && len(offered) > 0 {
					found = partner(h, trace.Recv)
				} else if e.Obj == ch && e.Op == trace.Recv && e.Flags&trace.FlagClosed == 0 && len(offered) == 0 {
					found = partner(h, trace.Send)
				}
				if found {
					break
				}
			}
			if !found {
				return Schedule{}, fmt.Errorf("held at the send of event %d, its goroutine keeps the close of event %d from running", send+1, close+1)
			}
			continue
		}
		ev := evs[best]
		st.step(best)
		tail = append(tail, best)
		if ev.Obj == ch && ev.Flags&trace.FlagClosed == 0 {
			switch ev.Op {
			case trace.Send:
				offered = append(offered, best)
				if unbuffered {
					waiting[ev.G] = best
				}
			case trace.Recv:
				s := offered[0]
				offered = offered[1:]
				delete(waiting, evs[s].G)
				if matched[best] != s {
					frozen[ev.G] = true
				}
			}
		}
	}
	return Schedule{Prefix: send, Tail: append(tail, send)}, nil
}

// StopCloseFirst returns a schedule in which a select's goroutine, let
// out of its loop through a stop case, closes the channel another
// goroutine is about to send on: sel, a case of the select, received
// send in the recorded run; late is a later receive of the same goroutine
// at a stop case of that select that saw the channel closed by stop (a
// third goroutine's close); close is the select's goroutine's close of
// send's channel after late (a deferred close on its way out). The
// schedule runs the three goroutines up to just before stop, sel and
// send (stopThree), then stop, so that the select, send's goroutine held
// at its gate, finds only the stop case ready and takes it: its goroutine
// goes on from late, skipping what it did from sel up to late in the
// recording (the rest of that round of its loop). It then runs the
// goroutine's events from late up to close, and ends with close and send
// (the send then panics: send on closed channel). It returns an error
// when no feasible schedule reaches that state, or the skipped events
// matter to the steps after them: a source of one of them, a lock left
// held or released, a goroutine started, or an operation at the site of a
// later step (the replay numbers a goroutine's steps at one site by
// occurrence).
func (g *Generator) StopCloseFirst(stop, sel, late, close, send int32) (Schedule, error) {
	gr := g.gr
	evs := gr.Tr.Events
	gc, gs, gp := evs[stop].G, evs[sel].G, evs[send].G
	if gc == gs || gc == gp || gs == gp || evs[stop].Op != trace.Close || !evs[sel].Op.IsChan() ||
		evs[late].Op != trace.Recv || evs[late].Flags&trace.FlagClosed == 0 || evs[late].Obj != evs[stop].Obj || evs[late].G != gs || late <= sel ||
		evs[close].Op != trace.Close || evs[close].G != gs || close <= late ||
		evs[send].Op != trace.Send || evs[send].Flags&trace.FlagClosed != 0 || evs[send].Obj != evs[close].Obj {
		return Schedule{}, fmt.Errorf("events %d %d %d %d %d are no stop, select case, stop case, close and send", stop+1, sel+1, late+1, close+1, send+1)
	}
	row := gr.G(gs)
	from, to := gr.Local[sel], gr.Local[late] // the skipped events: row[from:to]
	skipped := func(e int32) bool {
		return evs[e].G == gs && gr.Local[e] >= from && gr.Local[e] < to
	}
	type opSite struct {
		op   trace.Op
		site int32
	}
	held := map[int32]int{}
	sites := map[opSite]bool{}
	for _, e := range row[from:to] {
		ev := evs[e]
		switch ev.Op {
		case trace.Fork:
			return Schedule{}, fmt.Errorf("event %d starts a goroutine between the select case of event %d and its stop case", e+1, sel+1)
		case trace.Lock, trace.RLock:
			held[ev.Obj]++
		case trace.Unlock, trace.RUnlock:
			held[ev.Obj]--
		}
		sites[opSite{ev.Op, ev.Site}] = true
	}
	for l, n := range held {
		if n != 0 {
			return Schedule{}, fmt.Errorf("the events skipped between events %d and %d leave lock %s otherwise than they found it", sel+1, late+1, gr.Tr.Objects[l])
		}
	}
	sched, err := g.stopThree([3]int32{stop, sel, send})
	if err != nil {
		return Schedule{}, err
	}
	st := &g.st
	run := func(e int32) error {
		for _, src := range gr.Sources(e) {
			if skipped(src) || !st.executed(src) {
				return fmt.Errorf("event %d runs before event %d, which happens before it", e+1, src+1)
			}
		}
		if evs[e].Op.IsAcquire() {
			if b := st.blocker(e); b >= 0 {
				return fmt.Errorf("event %d acquires %s held by %s", e+1, gr.Tr.Objects[evs[e].Obj], gr.Tr.Goroutines[b])
			}
		}
		st.step(e)
		return nil
	}
	if err := run(stop); err != nil {
		return Schedule{}, err
	}
	tail := []int32{stop}
	st.pos[gs] = to
	for _, e := range row[to : gr.Local[close]+1] {
		ev := evs[e]
		if sites[opSite{ev.Op, ev.Site}] {
			return Schedule{}, fmt.Errorf("event %d is at the site of a skipped event", e+1)
		}
		if e != late && e != close {
			switch ev.Op {
			case trace.Send, trace.Recv, trace.Close, trace.WGWait, trace.CondWait, trace.Join:
				return Schedule{}, fmt.Errorf("event %d, between the stop case of event %d and the close of event %d, may wait", e+1, late+1, close+1)
			}
		}
		if err := run(e); err != nil {
			return Schedule{}, err
		}
		tail = append(tail, e)
	}
	for _, src := range gr.Sources(send) {
		// sel, send's recorded match, is the one skipped event it may
		// follow in the recording: the schedule undoes that match.
		if src != sel && (skipped(src) || !st.executed(src)) {
			return Schedule{}, fmt.Errorf("event %d runs before event %d, which happens before it", send+1, src+1)
		}
	}
	sched.Tail = append(append(sched.Tail, tail...), send)
	return sched, nil
}

// scanAll makes sim.run look at every goroutine at every step instead of
// the heap and the sleeping waiters (for TestHeapSameSchedules).
var scanAll bool

// goHeap is a min-heap of goroutines keyed by their next event: each
// element is the event index << 32 | the goroutine.
type goHeap []int64

func (h *goHeap) push(x int64) {
	*h = append(*h, x)
	a := *h
	for i := len(a) - 1; i > 0; {
		p := (i - 1) / 2
		if a[p] <= a[i] {
			break
		}
		a[p], a[i] = a[i], a[p]
		i = p
	}
}

func (h *goHeap) pop() int64 {
	a := *h
	x := a[0]
	n := len(a) - 1
	a[0] = a[n]
	a = a[:n]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < n && a[l] < a[m] {
			m = l
		}
		if r := l + 1; r < n && a[r] < a[m] {
			m = r
		}
		if m == i {
			break
		}
		a[i], a[m] = a[m], a[i]
		i = m
	}
	*h = a
	return x
}
