// Package filter decides which predicted anomalies are worth a replay, and
// in which order to replay them.
//
// It runs between prediction (predict) and replay (check), and has one
// job: spend fewer replays without ever losing an anomaly that replay
// would reproduce.
//
// Two checks, from two seeds:
//
//   - Locks (Penelope, section 4.1, after Kahlon et al.): an anomaly whose
//     goroutine A must be between two of its events x and x' while another
//     goroutine B runs its event y can only happen if some point of A in
//     [x, x') and the point of B just before y are reachable together by a
//     lock-valid execution. Their locksets must not conflict and their
//     acquisition histories must be compatible. When no point qualifies,
//     no execution, and so no replay, realizes the anomaly: it is dropped.
//     Only the "only if" half of the theorem is used, and that half needs
//     neither nested locking nor two goroutines alone (the projection of a
//     lock-valid execution onto two goroutines is lock-valid), so the drop
//     is sound for any trace. A lock released by a goroutine other than the
//     one holding it (Go allows that) is left out: "held by A" would not be
//     a fact about A's program order.
//
//   - Reads from (AVFilter, Lemmas 1 and 2): a schedule that makes a read
//     observe another write than in the recorded run may change the value a
//     later branch of that goroutine depends on, and the goroutine then
//     leaves the schedule (replay: "diverged"). The trace records neither
//     values nor branches, so such a schedule is only less likely, never
//     surely infeasible: the same value may be read, or the branch may not
//     depend on it. Dropping it would lose anomalies replay reproduces (the
//     paper admits these false negatives; pecanvet may not have them), so
//     this check only ranks: Broken counts the reads whose writer the
//     schedule changes and that a later anomaly event of the same goroutine
//     follows (the branch between them the paper asks for may be anywhere
//     in unrecorded code; after its last anomaly event a goroutine may
//     leave the schedule, replay lets it). check can replay the
//     instances of a site combination with fewer broken reads first
//     (Options.RankReadsFrom), but does not by default: on the corpus that
//     order cost more replays than the search's own and, under
//     -maxreplays, lost a finding. The reads an anomaly changes are often
//     the very reads whose new values make it show.
//
// The lemmas' intervals describe which reads change writer when an
// idealized predicted trace τ' moves the remote goroutine's events. Here the
// predicted trace is known exactly — it is the schedule — so the set is
// computed on it instead of estimated: a read r changes writer exactly when
// the last write to its location before r differs between the recorded
// trace and the schedule. (That sidesteps the off-by-one errors of the
// paper's Algorithm 1 at a_i and a_k listed in DESIGN.md's errata.)
package filter

import (
	"slices"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// Filter holds what the checks precompute for one trace.
type Filter struct {
	tr    *trace.Trace
	g     []int32   // dense goroutine of each event
	pos   []int32   // position of each event in its goroutine
	seq   [][]int32 // events of each dense goroutine in program order
	loose map[int32]bool
	// free[d][k] is the largest k' ≤ k such that goroutine d holds no
	// lock after its first k' events.
	free [][]int32

	// lastWrite[e] is the event that wrote e's location last before e in
	// trace order, or -1; writes[obj] lists the writes of obj in order.
	lastWrite []int32
	writes    map[int32][]int32
}

// New precomputes the goroutine orders, free points and writers of tr. It
// is linear in the trace.
func New(tr *trace.Trace) *Filter {
	n := len(tr.Events)
	f := &Filter{tr: tr, g: make([]int32, n), pos: make([]int32, n), loose: map[int32]bool{},
		lastWrite: make([]int32, n), writes: map[int32][]int32{}}
	dense := map[int32]int32{}
	holder := map[int32]map[int32]int{} // lock → goroutine → holds
	last := map[int32]int32{}
	for i, e := range tr.Events {
		d, ok := dense[e.G]
		if !ok {
			d = int32(len(f.seq))
			dense[e.G] = d
			f.seq = append(f.seq, nil)
		}
		f.g[i], f.pos[i] = d, int32(len(f.seq[d]))
		f.seq[d] = append(f.seq[d], int32(i))
		switch {
		case e.Op.IsAcquire():
			if holder[e.Obj] == nil {
				holder[e.Obj] = map[int32]int{}
			}
			holder[e.Obj][d]++
		case e.Op.IsRelease():
			if holder[e.Obj][d] == 0 {
				f.loose[e.Obj] = true // released by a goroutine not holding it
			} else {
				holder[e.Obj][d]--
			}
		}
		f.lastWrite[i] = -1
		if e.Op.IsAccess() {
			if w, ok := last[e.Obj]; ok {
				f.lastWrite[i] = w
			}
			if e.Op.Writes() {
				last[e.Obj] = int32(i)
				f.writes[e.Obj] = append(f.writes[e.Obj], int32(i))
			}
		}
	}
	f.free = make([][]int32, len(f.seq))
	for d, s := range f.seq {
		fr := make([]int32, len(s)+1)
		held := map[hold]int{}
		count := 0
		for k := 0; k <= len(s); k++ {
			if k > 0 {
				e := tr.Events[s[k-1]]
				if h, ok := f.holdOf(e); ok {
					if e.Op.IsAcquire() {
						held[h]++
						count++
					} else if held[h] > 0 {
						held[h]--
						count--
					}
				}
			}
			if count == 0 {
				fr[k] = int32(k)
			} else {
				fr[k] = fr[k-1]
			}
		}
		f.free[d] = fr
	}
	return f
}

// hold is one lock held in one mode.
type hold struct {
	lock  int32
	write bool
}

// holdOf returns the hold an acquire or release event takes or gives back,
// false for other events and for loose locks.
func (f *Filter) holdOf(e trace.Event) (hold, bool) {
	if !(e.Op.IsAcquire() || e.Op.IsRelease()) || f.loose[e.Obj] {
		return hold{}, false
	}
	return hold{e.Obj, e.Op == trace.Lock || e.Op == trace.Unlock}, true
}

func conflict(a, b bool) bool { return a || b } // two holds conflict unless both read

// state is a goroutine's lock state after a prefix of its events: the locks
// held, each with the acquisitions made since the hold began (the
// acquisition history).
type state struct {
	held []heldLock
}

type heldLock struct {
	h     hold
	count int
	after []hold // acquisitions since this hold began (AH)
}

func (s *state) step(h hold, acquire bool) {
	if acquire {
		for i := range s.held {
			// A set: its size is the number of distinct locks, however
			// often they are taken.
			if !slices.Contains(s.held[i].after, h) {
				s.held[i].after = append(s.held[i].after, h)
			}
		}
		for i := range s.held {
			if s.held[i].h == h {
				s.held[i].count++
				return
			}
		}
		s.held = append(s.held, heldLock{h: h, count: 1})
		return
	}
	for i := range s.held {
		if s.held[i].h == h {
			if s.held[i].count--; s.held[i].count == 0 {
				s.held = slices.Delete(s.held, i, i+1)
			}
			return
		}
	}
}

// compatible reports whether goroutine states a and b (of two different
// goroutines) may hold at the same time in a lock-valid execution: no lock
// held by both in conflicting modes, and no pair of locks l, l' with a
// holding l and acquiring l' since (in a mode conflicting with b's hold of
// l'), b holding l' and acquiring l since (conflicting with a's hold of l).
// Then a's acquisition of l' precedes b's hold of l', inside which b
// acquires l, which precedes a's hold of l, inside which a acquired l': a
// cycle in time, so no such execution exists.
func compatible(a, b *state) bool {
	for _, x := range a.held {
		for _, y := range b.held {
			if x.h.lock == y.h.lock && conflict(x.h.write, y.h.write) {
				return false
			}
		}
	}
	for _, x := range a.held { // a holds l = x.h
		for _, acqA := range x.after { // a acquired l' = acqA.lock since
			for _, y := range b.held {
				if y.h.lock != acqA.lock || !conflict(acqA.write, y.h.write) {
					continue
				}
				for _, acqB := range y.after { // b acquired l since holding l'
					if acqB.lock == x.h.lock && conflict(acqB.write, x.h.write) {
						return false
					}
				}
			}
		}
	}
	return true
}

// maxScan bounds the events one sandwich's check walks through (the
// stretches of held locks before X and Y, and [X, X2)). Past it the check
// answers "reachable": giving up a rejection is always safe, and the cost
// of the check stays linear in the number of candidates.
const maxScan = 1 << 14

// prefix returns goroutine d's state after its first k events, scanning
// from the last point before it where d held no lock; ok is false when
// that stretch is longer than maxScan.
func (f *Filter) prefix(d int32, k int32) (s state, ok bool) {
	if k-f.free[d][k] > maxScan {
		return s, false
	}
	for p := f.free[d][k]; p < k; p++ {
		if h, ok := f.holdOf(f.tr.Events[f.seq[d][p]]); ok {
			s.step(h, f.tr.Events[f.seq[d][p]].Op.IsAcquire())
		}
	}
	return s, true
}

// Sandwich is one lock-reachability question of an anomaly: goroutine A
// is between its events X and X2 (X done, X2 not yet) while another
// goroutine runs Y.
type Sandwich struct{ X, Y, X2 int32 }

// Sandwiches returns the sandwiches of an anomaly whose events, in pattern
// order, are events: each y between two consecutive events x, x' of
// another goroutine.
func (f *Filter) Sandwiches(events []int32) []Sandwich {
	var out []Sandwich
	for p, x := range events {
		q := -1 // next event of x's goroutine in the pattern
		for r := p + 1; r < len(events); r++ {
			if f.g[events[r]] == f.g[x] {
				q = r
				break
			}
		}
		if q < 0 {
			continue
		}
		for r := p + 1; r < q; r++ {
			out = append(out, Sandwich{x, events[r], events[q]})
		}
	}
	return out
}

// LockFeasible reports whether every sandwich of the anomaly has a point of
// A in [X, X2) lock-compatible with B's point just before Y. When it
// reports false, it returns the sandwich that no lock-valid execution
// reaches.
func (f *Filter) LockFeasible(events []int32) (bool, Sandwich) {
	for _, sw := range f.Sandwiches(events) {
		if !f.reachable(sw) {
			return false, sw
		}
	}
	return true, Sandwich{}
}

func (f *Filter) reachable(sw Sandwich) bool {
	a, b := f.g[sw.X], f.g[sw.Y]
	if a == b || f.pos[sw.X2] <= f.pos[sw.X] {
		return true // not a question this check answers
	}
	sb, ok := f.prefix(b, f.pos[sw.Y])
	if !ok {
		return true
	}
	// A's points: after its first k events, k from pos(X)+1 to pos(X2).
	k0 := f.pos[sw.X] + 1
	sa, ok := f.prefix(a, k0)
	if !ok || f.pos[sw.X2]-k0 > maxScan {
		return true
	}
	for k := k0; ; k++ {
		if compatible(&sa, &sb) {
			return true
		}
		if k >= f.pos[sw.X2] {
			return false
		}
		if h, ok := f.holdOf(f.tr.Events[f.seq[a][k]]); ok {
			sa.step(h, f.tr.Events[f.seq[a][k]].Op.IsAcquire())
			if len(sa.held) == 0 {
				return true // an empty lockset is compatible with anything
			}
		}
	}
}

// Broken counts the reads of a schedule (the trace's first prefix events
// in trace order, then tail) that read their location's value from another
// write than in the recorded trace and that an event of the anomaly
// (events) on the same goroutine follows in the schedule: each may steer
// its goroutine off the schedule before its part of the anomaly is done.
// Reads in the prefix read what they read in the trace. After a
// goroutine's last anomaly event it may take another path (replay lets it
// run free then), so the reads there do not count.
func (f *Filter) Broken(prefix int32, tail []int32, events []int32) int {
	if len(tail) == 0 {
		return 0
	}
	isAnomaly := map[int32]bool{}
	for _, e := range events {
		isAnomaly[e] = true
	}
	lastAnomaly := map[int32]int{} // dense goroutine → its last anomaly index in tail
	for i, e := range tail {
		if isAnomaly[e] {
			lastAnomaly[f.g[e]] = i
		}
	}
	lastTail := map[int32]int32{} // object → last write in the tail so far
	broken := 0
	for i, e := range tail {
		ev := f.tr.Events[e]
		if !ev.Op.IsAccess() {
			continue
		}
		if last, ok := lastAnomaly[f.g[e]]; ok && last > i && ev.Op.Reads() {
			w, ok := lastTail[ev.Obj]
			if !ok {
				w = f.lastWriteBefore(ev.Obj, prefix)
			}
			if w != f.lastWrite[e] {
				broken++
			}
		}
		if ev.Op.Writes() {
			lastTail[ev.Obj] = e
		}
	}
	return broken
}

// lastWriteBefore returns the last write of obj among events [0, n), or -1.
func (f *Filter) lastWriteBefore(obj int32, n int32) int32 {
	ws := f.writes[obj]
	k, _ := slices.BinarySearch(ws, n)
	if k == 0 {
		return -1
	}
	return ws[k-1]
}
