// Package schedule generates, for one predicted anomaly, a thread schedule
// that makes it happen: PECAN section 6 (Algorithms 3 and 4), generalized to
// any pattern.
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
	"sort"

	"github.com/pecanvet/pecanvet/ssatrace/ptg"
	"github.com/pecanvet/pecanvet/ssatrace/trace"
)

// maxRounds bounds the constraint refinements of one generation.
const maxRounds = 64

// Generate returns a feasible schedule (event indices, in order, ending with
// the last pattern event) in which the events of p occur in p's order — and
// back to back if adjacent — or an error saying why there is none.
func Generate(gr *ptg.Graph, p []int32, adjacent bool) ([]int32, error) {
	if len(p) == 0 {
		return nil, fmt.Errorf("empty pattern instance")
	}
	evs := gr.Tr.Events
	for k := 1; k < len(p); k++ {
		a, b := p[k-1], p[k]
		if a == b {
			return nil, fmt.Errorf("event %d used twice", a+1)
		}
		if evs[a].G == evs[b].G && gr.Local[a] > gr.Local[b] {
			return nil, fmt.Errorf("events %d and %d of one goroutine in reverse program order", a+1, b+1)
		}
		if gr.POR(b, a) {
			return nil, fmt.Errorf("event %d happens before event %d", b+1, a+1)
		}
		if adjacent && evs[a].G == evs[b].G && gr.Local[b] != gr.Local[a]+1 {
			return nil, fmt.Errorf("events %d and %d of one goroutine cannot be adjacent", a+1, b+1)
		}
	}
	s := &sim{gr: gr, p: p, adjacent: adjacent, ng: gr.NG}
	// Pattern order: the goroutine of p[k] waits at p[k] for p[k-1].
	for k := 1; k < len(p); k++ {
		if evs[p[k]].G != evs[p[k-1]].G {
			s.holds = append(s.holds, hold{at: p[k], after: p[k-1]})
		}
	}
	for round := 0; round < maxRounds; round++ {
		sched, fix, err := s.run()
		if err != nil {
			return nil, err
		}
		if sched != nil {
			return sched, nil
		}
		if !fix {
			return nil, fmt.Errorf("no feasible schedule: %s", s.why)
		}
	}
	return nil, fmt.Errorf("no feasible schedule found in %d refinements: %s", maxRounds, s.why)
}

// hold says: the goroutine of event at may not execute at (or anything
// after it) until event after has executed.
type hold struct{ at, after int32 }

type sim struct {
	gr       *ptg.Graph
	p        []int32
	adjacent bool
	ng       int
	holds    []hold
	extra    []int32 // events that must also run (lock releases)
	why      string

	// per run
	pos     []int32 // goroutine → local index of its next event
	need    []int32 // goroutine → last local index it must execute (-1: none)
	owner   map[int32]int32
	readers map[int32]map[int32]int
	gHolds  [][]hold
}

func (s *sim) executed(e int32) bool {
	return s.gr.Local[e] < s.pos[s.gr.Tr.Events[e].G]
}

// closure computes need[] from the pattern events, extras and hold targets.
func (s *sim) closure() {
	gr := s.gr
	evs := gr.Tr.Events
	for g := range s.need {
		s.need[g] = s.pos[g] - 1
	}
	var work []int32
	scanned := make([]int32, s.ng)
	copy(scanned, s.pos)
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
			for _, src := range gr.Srcs[row[scanned[g]]] {
				want(src)
			}
		}
	}
}

// run simulates once. It returns a schedule, or fix == true if it added a
// constraint and wants another round, or neither (with s.why) on failure.
func (s *sim) run() (sched []int32, fix bool, err error) {
	gr := s.gr
	evs := gr.Tr.Events
	// Window start: the first event that may have to wait.
	w := s.p[0]
	for _, e := range s.p {
		w = min(w, e)
	}
	for _, h := range s.holds {
		w = min(w, h.at)
	}
	s.pos = make([]int32, s.ng)
	s.need = make([]int32, s.ng)
	s.owner = map[int32]int32{}
	s.readers = map[int32]map[int32]int{}
	for i := int32(0); i < w; i++ {
		e := evs[i]
		s.pos[e.G]++
		s.lockStep(i, e)
	}
	s.gHolds = make([][]hold, s.ng)
	for _, h := range s.holds {
		g := evs[h.at].G
		s.gHolds[g] = append(s.gHolds[g], h)
	}
	s.closure()

	out := make([]int32, 0, int(w)+64)
	for i := int32(0); i < w; i++ {
		out = append(out, i)
	}
	nextPat := 0
	for {
		best := int32(-1)
		for g := 0; g < s.ng; g++ {
			if s.pos[g] > s.need[g] {
				continue
			}
			e := gr.G(int32(g))[s.pos[g]]
			if (best < 0 || e < best) && s.enabled(e, nextPat) {
				best = e
			}
		}
		if best < 0 {
			return nil, s.unstick(nextPat), nil
		}
		out = s.exec(out, best)
		if nextPat < len(s.p) && best == s.p[nextPat] {
			nextPat++
			for s.adjacent && nextPat < len(s.p) {
				nx := s.p[nextPat]
				if !s.enabled(nx, nextPat) {
					s.why = fmt.Sprintf("event %d cannot follow event %d at once", nx+1, s.p[nextPat-1]+1)
					return nil, false, nil
				}
				out = s.exec(out, nx)
				nextPat++
			}
			if nextPat == len(s.p) {
				return out, false, nil
			}
		}
	}
}

func (s *sim) exec(out []int32, e int32) []int32 {
	ev := s.gr.Tr.Events[e]
	s.pos[ev.G]++
	s.lockStep(e, ev)
	return append(out, e)
}

func (s *sim) lockStep(i int32, e trace.Event) {
	switch e.Op {
	case trace.Lock:
		s.owner[e.Obj] = e.G
	case trace.Unlock:
		if s.owner[e.Obj] == e.G {
			delete(s.owner, e.Obj)
		}
	case trace.RLock:
		r := s.readers[e.Obj]
		if r == nil {
			r = map[int32]int{}
			s.readers[e.Obj] = r
		}
		r[e.G]++
	case trace.RUnlock:
		if r := s.readers[e.Obj]; r != nil {
			if r[e.G]--; r[e.G] <= 0 {
				delete(r, e.G)
			}
		}
	}
}

// lockBlocker returns the goroutine that keeps e (an acquire) from running, or -1.
func (s *sim) lockBlocker(e int32) int32 {
	ev := s.gr.Tr.Events[e]
	if o, ok := s.owner[ev.Obj]; ok && o != ev.G {
		return o
	}
	if ev.Op == trace.Lock {
		for r := range s.readers[ev.Obj] {
			if r != ev.G {
				return r
			}
		}
	}
	return -1
}

func (s *sim) enabled(e int32, nextPat int) bool {
	gr := s.gr
	ev := gr.Tr.Events[e]
	for _, src := range gr.Srcs[e] {
		if !s.executed(src) {
			return false
		}
	}
	if ev.Op.IsAcquire() && s.lockBlocker(e) >= 0 {
		return false
	}
	l := gr.Local[e]
	for _, h := range s.gHolds[ev.G] {
		if l >= gr.Local[h.at] && !s.executed(h.after) {
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
				if s.pos[ng] != gr.Local[nx] {
					return false
				}
				for _, src := range gr.Srcs[nx] {
					if src != e && !s.executed(src) {
						return false
					}
				}
				if gr.Tr.Events[nx].Op.IsAcquire() {
					if b := s.lockBlocker(nx); b >= 0 && b != ev.G {
						return false
					}
				}
				for _, h := range s.gHolds[ng] {
					if gr.Local[nx] >= gr.Local[h.at] && h.after != e && !s.executed(h.after) {
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
func (s *sim) unstick(nextPat int) bool {
	gr := s.gr
	evs := gr.Tr.Events
	// Candidates: goroutines waiting for a lock, earliest event first.
	type wait struct{ e, holder int32 }
	var waits []wait
	for g := 0; g < s.ng; g++ {
		if s.pos[g] > s.need[g] {
			continue
		}
		e := gr.G(int32(g))[s.pos[g]]
		if evs[e].Op.IsAcquire() {
			if h := s.lockBlocker(e); h >= 0 {
				waits = append(waits, wait{e, h})
			}
		}
	}
	sort.Slice(waits, func(i, j int) bool { return waits[i].e < waits[j].e })
	for _, w := range waits {
		lock := evs[w.e].Obj
		h := w.holder
		// The holder's acquisition of the lock and its release.
		acq := s.heldAcquire(h, lock)
		if acq < 0 {
			continue
		}
		if s.pos[h] > s.need[h] {
			// The holder was not needed any further: let it run to its release.
			if rel := s.release(acq); rel >= 0 {
				s.extra = append(s.extra, rel)
				return true
			}
			continue
		}
		// Move the holder's critical section after the waiter's.
		rel := s.release(w.e)
		if rel < 0 {
			continue
		}
		nh := hold{at: acq, after: rel}
		dup := false
		for _, o := range s.holds {
			if o == nh {
				dup = true
			}
		}
		if dup {
			continue
		}
		// The holder must not be held back past a pattern event that has to
		// run before the waiter's release can happen — that would deadlock;
		// a later round detects it, as the same hold would be asked again.
		s.holds = append(s.holds, nh)
		return true
	}
	var stuck []string
	for g := 0; g < s.ng; g++ {
		if s.pos[g] <= s.need[g] {
			e := gr.G(int32(g))[s.pos[g]]
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
	if s.pos[g] == 0 {
		return -1
	}
	lastDone := gr.G(g)[s.pos[g]-1]
	res := int32(-1)
	gr.HeldAcquires(lastDone, func(acq, l int32, _ bool) {
		if l == lock && res < 0 {
			res = acq
		}
	})
	return res
}

// release returns the event that releases the acquisition made at acq, or -1.
func (s *sim) release(acq int32) int32 {
	gr := s.gr
	evs := gr.Tr.Events
	a := evs[acq]
	row := gr.G(a.G)
	for l := gr.Local[acq] + 1; int(l) < len(row); l++ {
		e := row[l]
		ev := evs[e]
		if ev.Obj == a.Obj && ev.Op.IsRelease() && (ev.Op == trace.Unlock) == (a.Op == trace.Lock) {
			return e
		}
	}
	return -1
}
