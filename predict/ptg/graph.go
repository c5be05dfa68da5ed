// Package ptg builds PECAN's Partial and Temporal order Graph of a trace,
// which the pattern search walks.
//
// The graph (PECAN, sections 4–5.1) holds the indices the pattern search
// walks (events by goroutine, by memory location, by atomic region), the
// happens-before relation (the paper's POR) kept compactly, locksets with
// read/write modes, and atomic regions.
//
// Happens-before is stored only for thread-communication (TC) events, as the
// paper prescribes: every event gets a scalar epoch (its goroutine's own clock
// component), and each goroutine keeps a vector-clock snapshot only where a
// TC edge changed its knowledge of the others. POR between any two events is
// then derived on demand by one binary search, and memory stays linear in the
// trace plus (TC events × goroutines).
//
// The Go rules for POR edges (DESIGN.md, "Events"):
//
//   - fork → the child's first event; a goroutine's last event → join of it;
//   - channels, per channel, sends and non-closed receives counted in trace
//     order: k-th send → k-th receive; with capacity c > 0 the k-th receive →
//     the (k+c)-th send; unbuffered, the k-th receive → the event after the
//     k-th send in the sender (the send completes only when received);
//   - close → every later receive that observed the close;
//   - wg-done (and wg-add with a negative delta) → every later wg-wait,
//     unless the releasing goroutine itself added to the WaitGroup (its
//     Add may come after the Wait, which then does not wait for it);
//   - the first once on an object → every later once on it;
//   - the latest cond-signal/broadcast → the cond-wait that follows it;
//   - the latest atomic store (or read-modify-write) → an atomic load or
//     read-modify-write of the same object, except a load at the site of
//     one that starts a check-then-act, in the calling context where it
//     did (ActingLoads).
//
// Mutexes are not POR edges (hybrid model, section 4.2); they give locksets.
//
// Atomic regions: per goroutine, the maximal stretches during which it is
// inside a critical section or a region-begin/end unit (so the outermost
// critical section or the enclosing unit, whichever is larger, with
// overlapping ones merged), split at the boundary events fork, join, send,
// recv, close, wg-wait and cond-wait, which belong to no region.
//
// A unit whose own code releases the lock that guarded its accesses splits
// itself on purpose there; regions are not cut (a violation across the
// split can still be a bug), but Graph.SplitBetween names the release.
//
// Inconsistent input (unlock of a lock not held, non-nested locking, a trace
// order that contradicts happens-before) is reported in Graph.Warnings and
// analysis goes on; Graph.Unsound names locks whose use makes schedule
// soundness unguaranteed.
package ptg

import (
	"fmt"
	"math/bits"
	"sort"
	"sync"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// Graph is the PTG of one trace.
type Graph struct {
	Tr *trace.Trace
	NG int // number of goroutines

	Local  []int32  // event → position in its goroutine's program order
	Epoch  []uint32 // event → its goroutine's own clock component
	Lock   []int32  // event → lockset node (-1: no lock held)
	Region []int32  // event → atomic region id (-1: none)

	byG   csr // goroutine → its events in program order
	byObj csr // object → access events (and channel sends and closes) on it in trace order; built by Accesses
	objs  sync.Once
	// snapRows[g] holds goroutine g's clock snapshots, a row of
	// clk.nch chunk numbers each (clocks.go).
	snapRows [][]uint32
	clk      snapClocks
	// snapLoc[g][k] is the first local position g's snapshot k applies
	// to: the binary search of POR reads only these, 4 bytes each, so
	// that a goroutine's positions share few cache lines (the matcher
	// asks POR for every pair it compares, mostly of events far apart).
	snapLoc [][]int32
	nodes   []lockNode
	sets    lockSets
	// The events with a POR edge into an event: srcDst lists the events
	// that have some (increasing), srcDst[k]'s are srcList[srcOff[k]:srcOff[k+1]]
	// (to the end of srcList for the last).
	srcDst, srcOff, srcList []int32
	hasSrc                  []uint64 // bitset over events: in srcDst
	// srcRank[w] counts the events of srcDst below 64w, so that an
	// event's place in srcDst is a popcount, not a binary search: the
	// schedule simulation asks for an event's sources at every step and
	// goroutine it looks at, and on ants's long traces (a thousand
	// goroutines, a million events) the search was 15% of the check's CPU.
	srcRank []int32
	Regs    []RegionInfo   // region id → extent
	Warn    []string       // inconsistencies found while building, in trace order
	Unsafe  map[int32]bool // locks used in a non-nested way (schedules touching them may be unsound)
	splits  [][]int32      // goroutine → local positions of its deliberate splits (see SplitBetween)
	takes   [][]int32      // goroutine → local positions of its outermost unit's own first-lock acquires (RecheckBetween)
	acts    activations    // Activations, computed on demand
	acting  []bool         // event → an atomic load at an acting read site (ActingLoads); nil: none
}

// ActingRead reports whether event i is an atomic load at an acting read
// site, in an acting context (ActingLoads): a check whose value decides a
// write, the only remote event an acting pattern (pattern.Pattern.Acting)
// takes.
func (gr *Graph) ActingRead(i int32) bool {
	return gr.acting != nil && gr.acting[i] && gr.Tr.Events[i].Op == trace.AtomicLoad
}

// RegionInfo is the extent of one atomic region instance.
type RegionInfo struct {
	G           int32
	First, Last int32 // event indices of its first and last event
}

type lockNode struct {
	lock   int32
	mode   uint8 // 1 write, 2 read
	depth  int16
	parent int32
	acq    int32 // the acquiring event
	set    int32 // interned lockset of the whole stack ending here
}

const (
	modeW = 1
	modeR = 2
)

// csr is a compressed sparse row index: row r holds items[start[r]:start[r+1]].
type csr struct {
	start []int32
	items []int32
}

func (c *csr) row(r int32) []int32 {
	if r < 0 || int(r)+1 >= len(c.start) {
		return nil
	}
	return c.items[c.start[r]:c.start[r+1]]
}

func buildCSR(rows int, n int, key func(i int) int32) csr {
	start := make([]int32, rows+1)
	cnt := 0
	for i := 0; i < n; i++ {
		if k := key(i); k >= 0 {
			start[k+1]++
			cnt++
		}
	}
	for r := 0; r < rows; r++ {
		start[r+1] += start[r]
	}
	items := make([]int32, cnt)
	fill := make([]int32, rows)
	for i := 0; i < n; i++ {
		if k := key(i); k >= 0 {
			items[start[k]+fill[k]] = int32(i)
			fill[k]++
		}
	}
	return csr{start, items}
}

// G returns the events of goroutine g in program order.
func (gr *Graph) G(g int32) []int32 { return gr.byG.row(g) }

// Accesses returns the access events on object o in trace order; for a
// channel, its sends and closes (which channel patterns match).
//
// The index is built at the first call: the search does not use it (it
// classes accesses in one pass in trace order), so a prediction does not
// pay for it.
func (gr *Graph) Accesses(o int32) []int32 {
	gr.objs.Do(func() {
		evs := gr.Tr.Events
		gr.byObj = buildCSR(len(gr.Tr.Objects), len(evs), func(i int) int32 {
			if op := evs[i].Op; op.IsAccess() || op == trace.Send || op == trace.Close {
				return evs[i].Obj
			}
			return -1
		})
	})
	return gr.byObj.row(o)
}

// NumObjects returns the size of the object table.
func (gr *Graph) NumObjects() int { return len(gr.Tr.Objects) }

// Ev returns event i.
func (gr *Graph) Ev(i int32) trace.Event { return gr.Tr.Events[i] }

// Build computes the PTG of tr, which must satisfy tr.Check.
func Build(tr *trace.Trace) *Graph {
	n := len(tr.Events)
	gr := &Graph{
		Tr:     tr,
		NG:     len(tr.Goroutines),
		Local:  make([]int32, n),
		Epoch:  make([]uint32, n),
		Lock:   make([]int32, n),
		Region: make([]int32, n),
		hasSrc: make([]uint64, (n+63)/64),
		Unsafe: map[int32]bool{},
	}
	gr.sets.init()
	evs := tr.Events
	// One pass counts each goroutine's events (the goroutine rows' sizes)
	// and what the lock nodes, regions and the check-then-act marks need;
	// the builder's pass then sets each event's local position and fills
	// the rows as it goes. Two closure-driven passes per index plus a pass
	// over each row would take a fifth of the build time at 10^6 events.
	start := make([]int32, gr.NG+1)
	acq, loads := 0, false
	for i := range evs {
		e := &evs[i]
		start[e.G+1]++
		switch e.Op {
		case trace.Lock, trace.RLock, trace.RegionBegin:
			// Each acquisition or unit makes at most one lock node and
			// one region: size them once (growing them takes a fifth
			// of the build time).
			acq++
		case trace.AtomicLoad:
			loads = true
		}
	}
	for g := 0; g < gr.NG; g++ {
		start[g+1] += start[g]
	}
	gr.byG = csr{start, make([]int32, n)}
	gr.nodes = make([]lockNode, 0, acq)
	gr.Regs = make([]RegionInfo, 0, acq)
	b := newBuilder(gr)
	if loads {
		// Only atomic loads can start a check-then-act.
		b.cta = ActingLoads(tr)
		gr.acting = b.cta
	}
	for i := range evs {
		b.step(int32(i))
	}
	b.finish()
	gr.srcRank = make([]int32, len(gr.hasSrc))
	var r int32
	for w, bs := range gr.hasSrc {
		gr.srcRank[w] = r
		r += int32(bits.OnesCount64(bs))
	}
	return gr
}

func (gr *Graph) warnf(i int32, format string, args ...any) {
	if len(gr.Warn) >= 100 {
		if len(gr.Warn) == 100 {
			gr.Warn = append(gr.Warn, "further warnings suppressed")
		}
		return
	}
	gr.Warn = append(gr.Warn, fmt.Sprintf("event %d: ", i+1)+fmt.Sprintf(format, args...))
}

// VC returns the clock component of goroutine h known to event e
// (for h == e's goroutine, e's own epoch).
func (gr *Graph) VC(e int32, h int32) uint32 {
	g := gr.Tr.Events[e].G
	if g == h {
		return gr.Epoch[e]
	}
	k := snapAt(gr.snapLoc[g], gr.Local[e])
	if k < 0 {
		return 0
	}
	return gr.clk.at(gr.snapRows[g][k*gr.clk.nch:], h)
}

// Clock returns the clock snapshot that applies at event e (the zero
// Clock if none does): for h other than e's goroutine, VC(e, h) is
// Clock(e).At(h). A caller comparing one event with many finds it once.
func (gr *Graph) Clock(e int32) Clock {
	g := gr.Tr.Events[e].G
	k := snapAt(gr.snapLoc[g], gr.Local[e])
	if k < 0 {
		return Clock{}
	}
	n := gr.clk.nch
	return Clock{&gr.clk, gr.snapRows[g][k*n : (k+1)*n : (k+1)*n]}
}

// snapAt returns the index of the last snapshot of ss that applies at
// local position l (the last with local <= l), or -1, given the snapshots'
// local positions (snapLoc). It is sort.Search written out: POR asks it
// for every pair the search compares.
func snapAt(ss []int32, l int32) int {
	lo, hi := 0, len(ss)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ss[m] <= l {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo - 1
}

// POR reports whether a happens before b (program order or a chain of TC
// edges). It is false for a == b.
func (gr *Graph) POR(a, b int32) bool {
	if a == b {
		return false
	}
	ea, eb := gr.Tr.Events[a], gr.Tr.Events[b]
	if ea.G == eb.G {
		return gr.Local[a] < gr.Local[b]
	}
	return gr.VC(b, ea.G) >= gr.Epoch[a]
}

// Sources returns the events with a direct POR edge into e (program order
// aside).
func (gr *Graph) Sources(e int32) []int32 {
	if gr.hasSrc[e>>6]&(1<<(e&63)) == 0 {
		return nil
	}
	w := e >> 6
	k := int(gr.srcRank[w]) + bits.OnesCount64(gr.hasSrc[w]&(1<<(e&63)-1))
	end := int32(len(gr.srcList))
	if k+1 < len(gr.srcOff) {
		end = gr.srcOff[k+1]
	}
	return gr.srcList[gr.srcOff[k]:end:end]
}

// SplitBetween returns the release, if any, by which a unit deliberately
// splits itself between its events a and b (same goroutine), or -1. A
// deliberate split is a release by the outermost unit's own code (not by a
// method it calls) of its last lock, after a critical section that
// accessed memory: code that unlocks between two accesses means them to be
// separate (singleflight's Do publishes a pending call that way). A
// release inside a nested unit — the demo's Deposit calling the locked
// Balance and Set — is no such split: the caller composed two critical
// sections and expects them to run together. Regions are not cut there
// (a violation across the split can still be a bug, as in treeset's Add);
// the split is only named (predict.Anomaly.Split).
func (gr *Graph) SplitBetween(a, b int32) int32 {
	g := gr.Tr.Events[a].G
	if gr.Tr.Events[b].G != g {
		return -1
	}
	la, lb := gr.Local[a], gr.Local[b]
	if la > lb {
		la, lb = lb, la
	}
	ss := gr.splits[g]
	k := sort.Search(len(ss), func(i int) bool { return ss[i] >= la })
	if k < len(ss) && ss[k] < lb {
		return gr.byG.row(g)[ss[k]]
	}
	return -1
}

// RecheckBetween returns the acquire, if any, by which a unit re-checks
// under a lock what it read before taking it, between its events a and b
// (same goroutine): the earlier of them reads (or atomically loads) an
// object holding no lock; the outermost unit's own code (not a method it
// calls) then takes its first lock, and, holding it, reads that object
// again, at or before the later event, which is inside that lock. That is
// the double-checked idiom (ants's revertWorker: IsClosed, Lock, IsClosed
// again): the unlocked read is a hint, the locked one decides, and a
// write between them is what the second read is for, so a violation
// across it is reported only with evidence of an effect. A check that is
// not repeated under the lock (a time-of-check-to-time-of-use bug) is no
// recheck.
func (gr *Graph) RecheckBetween(a, b int32) int32 {
	g := gr.Tr.Events[a].G
	if gr.Tr.Events[b].G != g {
		return -1
	}
	if gr.Local[a] > gr.Local[b] {
		a, b = b, a
	}
	ea := gr.Tr.Events[a]
	if gr.Lock[a] >= 0 || ea.Op != trace.Read && ea.Op != trace.AtomicLoad || gr.Lock[b] < 0 {
		return -1
	}
	la, lb := gr.Local[a], gr.Local[b]
	ts := gr.takes[g]
	k := sort.Search(len(ts), func(i int) bool { return ts[i] > la })
	if k == len(ts) || ts[k] >= lb {
		return -1
	}
	row := gr.byG.row(g)
	acq := row[ts[k]]
	holds := func(e int32) bool {
		for n := gr.Lock[e]; n >= 0; n = gr.nodes[n].parent {
			if gr.nodes[n].acq == acq {
				return true
			}
		}
		return false
	}
	if !holds(b) {
		return -1
	}
	for l := ts[k] + 1; l <= lb; l++ {
		e := row[l]
		ev := gr.Tr.Events[e]
		if ev.Obj == ea.Obj && (ev.Op == trace.Read || ev.Op == trace.AtomicLoad) && holds(e) {
			return acq
		}
	}
	return -1
}

// RereadUnderLock reports whether a unit reads again under a lock, by b,
// what it read holding no lock at a (same goroutine, a first): the lock
// b holds outermost was acquired after a, in whatever method (unlike
// RecheckBetween, which wants the unit's own code to take it), and,
// holding it, the goroutine reads a's object again, at or before b. A
// write of the object by another goroutine between the two is then seen
// by the re-read as if it had come before a (pond's wrapAndSubmit checks
// Stopped, then trySubmit checks it again under p.mutex): check's
// controls take a failure that the "before" order shows too for that
// order's.
func (gr *Graph) RereadUnderLock(a, b int32) bool {
	g := gr.Tr.Events[a].G
	if gr.Tr.Events[b].G != g || gr.Local[a] > gr.Local[b] {
		return false
	}
	ea := gr.Tr.Events[a]
	if gr.Lock[a] >= 0 || ea.Op != trace.Read && ea.Op != trace.AtomicLoad || gr.Lock[b] < 0 {
		return false
	}
	n := gr.Lock[b]
	for gr.nodes[n].parent >= 0 {
		n = gr.nodes[n].parent
	}
	acq := gr.nodes[n].acq
	if acq < 0 || gr.Tr.Events[acq].G != g || gr.Local[acq] < gr.Local[a] {
		return false
	}
	row := gr.byG.row(g)
	for l := gr.Local[acq] + 1; l <= gr.Local[b]; l++ {
		e := row[l]
		ev := gr.Tr.Events[e]
		if ev.Obj == ea.Obj && (ev.Op == trace.Read || ev.Op == trace.AtomicLoad) && gr.Lock[e] >= 0 {
			return true
		}
	}
	return false
}

// LockHold is one lock held at some point of a schedule.
type LockHold struct {
	Lock  int32
	G     int32
	Write bool
}

// StateAt returns the state after the first w events of the trace ran in
// trace order: how many events of each goroutine ran, and the locks held.
func (gr *Graph) StateAt(w int32) (pos []int32, held []LockHold) {
	pos = make([]int32, gr.NG)
	for g := int32(0); g < int32(gr.NG); g++ {
		row := gr.G(g)
		k := sort.Search(len(row), func(i int) bool { return row[i] >= w })
		pos[g] = int32(k)
		if k > 0 {
			gr.HeldAcquires(row[k-1], func(_, lock int32, write bool) {
				held = append(held, LockHold{lock, g, write})
			})
		}
	}
	return pos, held
}
