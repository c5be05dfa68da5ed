// Package oracle is a brute-force implementation of pecanvet's prediction
// model, for property tests on small traces.
//
// It is independent of the engine, and exact.
//
// Given one recorded trace it computes the happens-before edges the engine
// must respect (POR), the locksets, the atomic regions, every instance of a
// pattern, and — by exhaustive search over the feasible schedules — whether
// an instance is real (some feasible schedule realizes it). It favours being
// obviously correct over being fast: the search is exponential and meant for
// traces of a couple of dozen events at most, although New, CheckSchedule,
// Region and Lockset are linear and work on large traces too.
//
// Events are indexed 0..n-1 in trace order (trace event number i+1).
package oracle

import (
	"fmt"
	"slices"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
)

// Hold is one lock a goroutine holds, with its mode.
type Hold struct {
	Lock  int32 // object index of the lock
	Write bool  // held by Lock (write mode) rather than RLock
}

// Lockset is a set of holds, sorted by lock, read mode first.
type Lockset []Hold

// Conflicts reports whether l and o share a lock that at least one of them
// holds in write mode.
func (l Lockset) Conflicts(o Lockset) bool {
	for _, a := range l {
		for _, b := range o {
			if a.Lock == b.Lock && (a.Write || b.Write) {
				return true
			}
		}
	}
	return false
}

func (l Lockset) has(lock int32, write bool) bool {
	for _, h := range l {
		if h.Lock == lock && h.Write == write {
			return true
		}
	}
	return false
}

// Model holds what the oracle precomputes for a trace.
type Model struct {
	tr  *trace.Trace
	ev  []trace.Event
	n   int
	g   []int   // dense goroutine of each event
	po  []int   // position of each event in its goroutine's program order
	seq [][]int // events of each dense goroutine, in program order
	gOf map[int32]int

	preds [][]int  // direct non-PO POR predecessors of each event (sorted)
	edges [][2]int // the direct non-PO POR edges, sorted

	locks   []Lockset // l(e)
	region  []int     // region id of each event, -1 if none
	regions int

	reach [][]uint64 // transitive closure of PO ∪ edges, computed lazily

	acting []bool // atomic loads at acting read sites (actingLoads)
}

// New precomputes the POR edges, locksets and regions of tr. It does not
// validate tr beyond what it needs: object and goroutine indices it cannot
// resolve produce no edges.
func New(tr *trace.Trace) *Model {
	m := &Model{tr: tr, ev: tr.Events, n: len(tr.Events), gOf: map[int32]int{}}
	m.g = make([]int, m.n)
	m.po = make([]int, m.n)
	for i, e := range m.ev {
		d, ok := m.gOf[e.G]
		if !ok {
			d = len(m.seq)
			m.gOf[e.G] = d
			m.seq = append(m.seq, nil)
		}
		m.g[i] = d
		m.po[i] = len(m.seq[d])
		m.seq[d] = append(m.seq[d], i)
	}
	m.buildEdges()
	m.buildLocksets()
	m.buildRegions()
	return m
}

// Trace returns the trace m models.
func (m *Model) Trace() *trace.Trace { return m.tr }

// Len returns the number of events.
func (m *Model) Len() int { return m.n }

// Edges returns the direct POR edges other than program order, sorted.
func (m *Model) Edges() [][2]int { return slices.Clone(m.edges) }

// Preds returns the direct POR predecessors of e other than its program-order
// predecessor.
func (m *Model) Preds(e int) []int { return slices.Clone(m.preds[e]) }

func (m *Model) buildEdges() {
	set := map[[2]int]bool{}
	add := func(a, b int) {
		if a < 0 || b < 0 {
			return
		}
		set[[2]int{a, b}] = true
	}
	first := func(c int32) int {
		if d, ok := m.gOf[c]; ok {
			return m.seq[d][0]
		}
		return -1
	}
	last := func(c int32) int {
		if d, ok := m.gOf[c]; ok {
			s := m.seq[d]
			return s[len(s)-1]
		}
		return -1
	}
	succ := func(e int) int { // program-order successor
		s := m.seq[m.g[e]]
		if p := m.po[e] + 1; p < len(s) {
			return s[p]
		}
		return -1
	}

	type chanInfo struct {
		cap          int64
		capSet       bool
		sends, recvs []int
	}
	chans := map[int32]*chanInfo{}
	lastAtomicStore := map[int32]int{}
	wgAdders := map[[2]int32]bool{}
	lastSignal := map[int32]int{}
	wgReleases := map[int32][]int{}
	firstOnce := map[int32]int{}
	closes := map[int32][]int{}

	m.acting = actingLoads(m.ev)
	cta := m.acting
	for i, e := range m.ev {
		switch e.Op {
		case trace.Fork:
			add(i, first(e.Obj))
		case trace.Join:
			add(last(e.Obj), i)
		case trace.Send, trace.Recv, trace.Close:
			c := chans[e.Obj]
			if c == nil {
				c = &chanInfo{}
				chans[e.Obj] = c
			}
			if !c.capSet {
				c.cap, c.capSet = e.Arg, true
			}
			switch {
			case e.Op == trace.Send && e.Flags&trace.FlagClosed == 0:
				c.sends = append(c.sends, i)
			case e.Op == trace.Send: // panicked on the closed channel: no edge
			case e.Op == trace.Recv && e.Flags&trace.FlagClosed == 0:
				c.recvs = append(c.recvs, i)
			case e.Op == trace.Recv: // from a closed channel
				for _, cl := range closes[e.Obj] {
					add(cl, i)
				}
			case e.Op == trace.Close:
				closes[e.Obj] = append(closes[e.Obj], i)
			}
		case trace.WGDone:
			wgReleases[e.Obj] = append(wgReleases[e.Obj], i)
		case trace.WGAdd:
			if e.Arg < 0 {
				wgReleases[e.Obj] = append(wgReleases[e.Obj], i)
			} else if e.Arg > 0 {
				wgAdders[[2]int32{e.Obj, e.G}] = true
			}
		case trace.WGWait:
			for _, d := range wgReleases[e.Obj] {
				// A goroutine that added to the WaitGroup itself may add
				// after the Wait: its release orders nothing.
				if dg := m.ev[d].G; dg != e.G && wgAdders[[2]int32{e.Obj, dg}] {
					continue
				}
				add(d, i)
			}
		case trace.OnceDo:
			if f, ok := firstOnce[e.Obj]; ok {
				add(f, i)
			} else {
				firstOnce[e.Obj] = i
			}
		case trace.CondSignal, trace.CondBroadcast:
			lastSignal[e.Obj] = i
		case trace.CondWait:
			if s, ok := lastSignal[e.Obj]; ok {
				add(s, i)
			}
		case trace.AtomicLoad, trace.AtomicStore, trace.AtomicRMW:
			if e.Op != trace.AtomicStore && !cta[i] {
				if s, ok := lastAtomicStore[e.Obj]; ok {
					add(s, i)
				}
			}
			if e.Op != trace.AtomicLoad {
				lastAtomicStore[e.Obj] = i
			}
		}
	}
	for _, c := range chans {
		for k, r := range c.recvs {
			if k < len(c.sends) {
				add(c.sends[k], r)
			}
			if c.cap > 0 {
				if j := int64(k) + c.cap; j < int64(len(c.sends)) {
					add(r, c.sends[j])
				}
			} else if k < len(c.sends) {
				add(r, succ(c.sends[k]))
			}
		}
	}

	m.preds = make([][]int, m.n)
	for e := range set {
		m.edges = append(m.edges, e)
		m.preds[e[1]] = append(m.preds[e[1]], e[0])
	}
	slices.SortFunc(m.edges, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	for _, p := range m.preds {
		slices.Sort(p)
	}
}

// lockState is one goroutine's holds with their counts.
type lockState map[Hold]int

func (s lockState) set() Lockset {
	var l Lockset
	for h, c := range s {
		if c > 0 {
			l = append(l, h)
		}
	}
	slices.SortFunc(l, func(a, b Hold) int {
		if a.Lock != b.Lock {
			return int(a.Lock - b.Lock)
		}
		if a.Write == b.Write {
			return 0
		}
		if b.Write {
			return -1
		}
		return 1
	})
	return l
}

// apply updates s for event e of its goroutine. A release of a lock the
// goroutine does not hold (in that mode) changes nothing.
func (s lockState) apply(e trace.Event) {
	switch e.Op {
	case trace.Lock:
		s[Hold{e.Obj, true}]++
	case trace.RLock:
		s[Hold{e.Obj, false}]++
	case trace.Unlock:
		if h := (Hold{e.Obj, true}); s[h] > 0 {
			s[h]--
		}
	case trace.RUnlock:
		if h := (Hold{e.Obj, false}); s[h] > 0 {
			s[h]--
		}
	}
}

func (s lockState) empty() bool {
	for _, c := range s {
		if c > 0 {
			return false
		}
	}
	return true
}

func (m *Model) buildLocksets() {
	m.locks = make([]Lockset, m.n)
	for _, s := range m.seq {
		st := lockState{}
		var cur Lockset
		for _, e := range s {
			if ev := m.ev[e]; ev.Op.IsAcquire() || ev.Op.IsRelease() {
				st.apply(ev)
				cur = st.set()
			}
			m.locks[e] = cur
		}
	}
}

// isBoundary reports whether events with op o split atomic regions.
func isBoundary(o trace.Op) bool { return o.EndsUnit() }

func (m *Model) buildRegions() {
	m.region = make([]int, m.n)
	for i := range m.region {
		m.region[i] = -1
	}
	for _, s := range m.seq {
		// Intervals of positions in s, inclusive.
		var iv [][2]int
		st := lockState{}
		csStart := -1
		depth, unitStart := 0, -1
		for p, e := range s {
			ev := m.ev[e]
			wasEmpty := st.empty()
			st.apply(ev)
			if ev.Op.IsAcquire() && wasEmpty {
				csStart = p
			}
			if ev.Op.IsRelease() && csStart >= 0 && st.empty() {
				iv = append(iv, [2]int{csStart, p})
				csStart = -1
			}
			switch ev.Op {
			case trace.RegionBegin:
				if depth == 0 {
					unitStart = p
				}
				depth++
			case trace.RegionEnd:
				if depth > 0 {
					depth--
					if depth == 0 {
						iv = append(iv, [2]int{unitStart, p})
					}
				}
			}
		}
		// Intervals still open at the goroutine's last event end there.
		if csStart >= 0 {
			iv = append(iv, [2]int{csStart, len(s) - 1})
		}
		if depth > 0 {
			iv = append(iv, [2]int{unitStart, len(s) - 1})
		}
		slices.SortFunc(iv, func(a, b [2]int) int { return a[0] - b[0] })
		// Merge overlapping or nested intervals into components.
		var comps [][2]int
		for _, x := range iv {
			if k := len(comps) - 1; k >= 0 && x[0] <= comps[k][1] {
				comps[k][1] = max(comps[k][1], x[1])
				continue
			}
			comps = append(comps, x)
		}
		// Split components at boundary events.
		for _, c := range comps {
			id := -1
			for p := c[0]; p <= c[1]; p++ {
				e := s[p]
				if isBoundary(m.ev[e].Op) {
					id = -1
					continue
				}
				if id < 0 {
					id = m.regions
					m.regions++
				}
				m.region[e] = id
			}
		}
	}
}

// Region returns the id of the atomic region instance of event e, or -1 if
// e belongs to none.
func (m *Model) Region(e int) int { return m.region[e] }

// Regions returns the number of region instances; ids are 0..Regions()-1.
func (m *Model) Regions() int { return m.regions }

// Lockset returns l(e): the locks e's goroutine holds when executing e
// (including the lock an acquire takes, excluding the one a release frees).
func (m *Model) Lockset(e int) Lockset { return m.locks[e] }

// Goroutine returns the dense goroutine number of e (0, 1, … by first
// appearance in the trace).
func (m *Model) Goroutine(e int) int { return m.g[e] }

// POR reports whether a happens before b: whether b is reachable from a by a
// non-empty path of program-order and POR edges.
func (m *Model) POR(a, b int) bool {
	if m.reach == nil {
		m.closure()
	}
	return m.reach[a][b/64]&(1<<(b%64)) != 0
}

func (m *Model) closure() {
	w := (m.n + 63) / 64
	r := make([][]uint64, m.n)
	for i := range r {
		r[i] = make([]uint64, w)
	}
	set := func(a, b int) { r[a][b/64] |= 1 << (b % 64) }
	for _, s := range m.seq {
		for p := 1; p < len(s); p++ {
			set(s[p-1], s[p])
		}
	}
	for _, e := range m.edges {
		set(e[0], e[1])
	}
	// Warshall.
	for k := 0; k < m.n; k++ {
		for i := 0; i < m.n; i++ {
			if r[i][k/64]&(1<<(k%64)) != 0 {
				for j := range w {
					r[i][j] |= r[k][j]
				}
			}
		}
	}
	m.reach = r
}

func (m *Model) describe(e int) string {
	ev := m.ev[e]
	s := fmt.Sprintf("event %d (%s %s", e, m.tr.Name(trace.TabGoroutine, ev.G), ev.Op)
	if o := m.tr.ObjName(ev); o != "" {
		s += " " + o
	}
	return s + ")"
}

// CheckSchedule reports whether s is a feasible schedule: a sequence of
// distinct events that runs each goroutine's events as a prefix of its
// program order, puts every direct POR predecessor of an event before it, and
// respects lock exclusion. The error names the first offending position.
func (m *Model) CheckSchedule(s []int) error {
	next := make([]int, len(m.seq)) // per goroutine: how many of its events ran
	done := func(e int) bool { return next[m.g[e]] > m.po[e] }
	held := make([]lockState, len(m.seq))
	for i := range held {
		held[i] = lockState{}
	}
	for i, e := range s {
		if e < 0 || e >= m.n {
			return fmt.Errorf("position %d: event %d out of range [0,%d)", i, e, m.n)
		}
		g := m.g[e]
		if done(e) {
			return fmt.Errorf("position %d: %s appears twice", i, m.describe(e))
		}
		if m.po[e] != next[g] {
			return fmt.Errorf("position %d: %s runs before its program-order predecessor %s",
				i, m.describe(e), m.describe(m.seq[g][next[g]]))
		}
		for _, a := range m.preds[e] {
			if !done(a) {
				return fmt.Errorf("position %d: %s runs before its POR predecessor %s", i, m.describe(e), m.describe(a))
			}
		}
		ev := m.ev[e]
		if ev.Op.IsAcquire() {
			for h, st := range held {
				if st[Hold{ev.Obj, true}] > 0 || (ev.Op == trace.Lock && st[Hold{ev.Obj, false}] > 0) {
					return fmt.Errorf("position %d: %s acquires a lock that %s holds",
						i, m.describe(e), m.tr.Name(trace.TabGoroutine, m.ev[m.seq[h][0]].G))
				}
			}
		}
		held[g].apply(ev)
		next[g]++
	}
	return nil
}

// Realizes reports whether schedule s realizes instance inst of p: the
// instance's events occur in s in pattern order and, if p is Adjacent, at
// consecutive positions. It does not check that s is feasible.
func (m *Model) Realizes(p *pattern.Pattern, inst []int, s []int) bool {
	if len(inst) == 0 {
		return true
	}
	at := make(map[int]int, len(s))
	for i, e := range s {
		if _, dup := at[e]; !dup {
			at[e] = i
		}
	}
	prev := -1
	for k, e := range inst {
		i, ok := at[e]
		if !ok || i <= prev || (p.Adjacent && k > 0 && i != prev+1) {
			return false
		}
		prev = i
	}
	return true
}

// matches reports whether access event e can be bound to pattern event i.
func (m *Model) matches(p *pattern.Pattern, i, e int) bool {
	op := m.ev[e].Op
	if p.Chan {
		return op == trace.Send && p.AT[i] == pattern.R || op == trace.Close && p.AT[i] == pattern.W
	}
	if !op.IsAccess() {
		return false
	}
	if p.Acting && p.T[i] != p.T[0] && (op != trace.AtomicLoad || !m.acting[e]) {
		return false // an acting pattern's remote reads are checks that decide a write
	}
	switch p.AT[i] {
	case pattern.R:
		return op.Reads()
	case pattern.W:
		return op.Writes()
	}
	return false
}

// compatible checks the constraints between pattern events j and i bound to
// events ej and ei.
func (m *Model) compatible(p *pattern.Pattern, j, i, ej, ei int) bool {
	if ej == ei {
		return false
	}
	sameG := m.g[ej] == m.g[ei]
	if (p.T[j] == p.T[i]) != sameG {
		return false
	}
	if (p.SV[j] == p.SV[i]) != (m.ev[ej].Obj == m.ev[ei].Obj) {
		return false
	}
	rj, ri := m.region[ej], m.region[ei]
	if p.AR[j] == p.AR[i] {
		if rj < 0 || rj != ri {
			return false
		}
	} else if rj >= 0 && rj == ri {
		return false
	}
	// Pattern order must agree with program order.
	if sameG {
		if (j < i) != (m.po[ej] < m.po[ei]) {
			return false
		}
	}
	return true
}

// commuting reports whether inst is made of commutative atomic updates (Add,
// And, Or), each object updated by one kind only: any order of them gives
// the same final values, so for a pattern over atomics it is no instance.
func (m *Model) commuting(p *pattern.Pattern, inst []int) bool {
	if !p.Atomic {
		return false
	}
	kind := map[int32]uint8{}
	for _, e := range inst {
		ev := m.ev[e]
		u := ev.Flags & (trace.FlagAdd | trace.FlagAnd | trace.FlagOr)
		if ev.Op != trace.AtomicRMW || u == 0 {
			return false
		}
		if k, ok := kind[ev.Obj]; ok && k != u {
			return false
		}
		kind[ev.Obj] = u
	}
	return true
}

// unobserved reports whether inst, an instance of an atomicity pattern, is
// equivalent to a serial run: in the order where the remote events (those
// not on the unit's thread, pattern thread 0) all come first, or all come
// last, every pair of events whose order differs from inst's touches two
// objects, or is two discarded-result updates of one kind
// (trace.FlagUnused) of which the remote one's region (its goroutine, if it
// has none) touches that object with nothing else.
func (m *Model) unobserved(p *pattern.Pattern, inst []int) bool {
	if !p.Atomic {
		return false
	}
	var unit, remote []int // pattern indices
	for i := range inst {
		if p.T[i] == 0 {
			unit = append(unit, i)
		} else {
			remote = append(remote, i)
		}
	}
	if len(unit) == 0 {
		return false
	}
	unused := func(e int, kind uint8) bool {
		ev := m.ev[e]
		return ev.Op == trace.AtomicRMW && ev.Flags&trace.FlagUnused != 0 && ev.Flags&(trace.FlagAdd|trace.FlagAnd|trace.FlagOr) == kind && kind != 0
	}
	commutes := func(i, j int) bool { // i on the unit, j remote
		a, b := inst[i], inst[j]
		if m.ev[a].Obj != m.ev[b].Obj {
			return true
		}
		kind := m.ev[b].Flags & (trace.FlagAdd | trace.FlagAnd | trace.FlagOr)
		if !unused(a, kind) || !unused(b, kind) {
			return false
		}
		for _, x := range m.seq[m.g[b]] {
			same := m.region[b] < 0 || m.region[x] == m.region[b]
			if same && m.ev[x].Op.IsAccess() && m.ev[x].Obj == m.ev[b].Obj && !unused(x, kind) {
				return false
			}
		}
		return true
	}
	for _, order := range [][]int{append(slices.Clone(remote), unit...), append(slices.Clone(unit), remote...)} {
		pos := make([]int, len(inst))
		for k, i := range order {
			pos[i] = k
		}
		ok := true
		for _, i := range unit {
			for _, j := range remote {
				if (i < j) != (pos[i] < pos[j]) && !commutes(i, j) {
					ok = false
				}
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// allAtomic reports whether p is not Atomic and inst holds only sync/atomic
// accesses: such a pattern (a race) needs a plain access, since two
// sync/atomic accesses never race.
func (m *Model) allAtomic(p *pattern.Pattern, inst []int) bool {
	if p.Atomic || p.Chan {
		return false
	}
	for _, e := range inst {
		if !m.ev[e].Op.IsAtomic() {
			return false
		}
	}
	return true
}

// Instances returns every instance of p in the trace, in lexicographic order.
func (m *Model) Instances(p *pattern.Pattern) [][]int {
	if p.Lock || p.Leak || p.Cond || p.WG || p.Relock || p.Order {
		return nil // lock-order inversions: DeadlockKeys; leaks: LeakKeys
	}
	n := p.Len()
	var out [][]int
	cur := make([]int, n)
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			if !m.commuting(p, cur) && !m.allAtomic(p, cur) && !m.unobserved(p, cur) {
				out = append(out, slices.Clone(cur))
			}
			return
		}
	next:
		for e := 0; e < m.n; e++ {
			if !m.matches(p, i, e) {
				continue
			}
			for j := 0; j < i; j++ {
				if !m.compatible(p, j, i, cur[j], e) {
					continue next
				}
			}
			cur[i] = e
			rec(i + 1)
		}
	}
	rec(0)
	return out
}

// IsInstance reports whether inst is an instance of p.
func (m *Model) IsInstance(p *pattern.Pattern, inst []int) bool {
	if len(inst) != p.Len() {
		return false
	}
	if p.Order {
		// Two sections of one lock (predict's order-violation finder):
		// e1 the Lock of the later one, e2 that of another goroutine's
		// earlier one, taken in write mode.
		a, b := inst[0], inst[1]
		if a < 0 || a >= m.n || b < 0 || b >= m.n {
			return false
		}
		ea, eb := m.ev[a], m.ev[b]
		return ea.Op == trace.Lock && eb.Op == trace.Lock && ea.Obj == eb.Obj && ea.G != eb.G && b < a
	}
	for i, e := range inst {
		if e < 0 || e >= m.n || !m.matches(p, i, e) {
			return false
		}
		for j := 0; j < i; j++ {
			if !m.compatible(p, j, i, inst[j], e) {
				return false
			}
		}
	}
	return !m.commuting(p, inst) && !m.allAtomic(p, inst) && !m.unobserved(p, inst)
}

// checkThenAct marks the atomic loads of a check-then-act, which take no
// edge from the store they read: a load whose goroutine's next access of
// the object, in the same unit of work or critical section and before any
// boundary event, is an atomic store or read-modify-write (ptg's rule,
// written again over the event list).
func checkThenAct(ev []trace.Event) []bool {
	mark := make([]bool, len(ev))
	depth := map[int32]int{}
	locks := map[int32]int{}
	pending := map[[2]int32]int{} // (goroutine, object) → load
	drop := func(g int32) {
		for k := range pending {
			if k[0] == g {
				delete(pending, k)
			}
		}
	}
	for i, e := range ev {
		g := e.G
		if e.Op.EndsUnit() {
			drop(g)
			continue
		}
		switch e.Op {
		case trace.RegionBegin:
			depth[g]++
		case trace.RegionEnd, trace.Unlock, trace.RUnlock:
			if e.Op == trace.RegionEnd && depth[g] > 0 {
				depth[g]--
			}
			if e.Op != trace.RegionEnd && locks[g] > 0 {
				locks[g]--
			}
			if depth[g] == 0 && locks[g] == 0 {
				drop(g)
			}
		case trace.Lock, trace.RLock:
			locks[g]++
		case trace.AtomicLoad:
			if depth[g] > 0 || locks[g] > 0 {
				pending[[2]int32{g, e.Obj}] = i
			}
		case trace.AtomicStore, trace.AtomicRMW:
			k := [2]int32{g, e.Obj}
			if l, ok := pending[k]; ok {
				mark[l] = true
				delete(pending, k)
			}
		}
	}
	return mark
}

// actingLoads marks the atomic loads whose site is that of a
// check-then-act's load (checkThenAct), whether or not they acted: they
// take no edge from the store they read, and only they bind an acting
// pattern's remote reads (ptg's rule, written again over the event list).
func actingLoads(ev []trace.Event) []bool {
	cta := checkThenAct(ev)
	sites := map[int32]bool{}
	for i, e := range ev {
		if cta[i] && e.Site >= 0 {
			sites[e.Site] = true
		}
	}
	mark := make([]bool, len(ev))
	for i, e := range ev {
		mark[i] = cta[i] || e.Op == trace.AtomicLoad && e.Site >= 0 && sites[e.Site]
	}
	keepDereferenced(ev, mark)
	return mark
}

// keepDereferenced unmarks the acting loads whose unit (innermost region,
// else critical section) goes on to access an object the goroutine of the
// store they read created (first access: its write) and released at or
// before that store: the load loaded the pointer to it, and moved before
// the store it would read another object (ptg's rule, written again).
func keepDereferenced(ev []trace.Event, mark []bool) {
	type load struct {
		at, store, depth int
	}
	creator := map[int32]int32{} // object → goroutine of its first access if a write, else -1
	pub := map[int32]int{}       // object → its creator's first release after its first write
	fresh := map[int32][]int32{}
	latest := map[int32]int{}
	open := map[int32]load{}
	depth := map[int32]int{}
	locks := map[int32]int{}
	for i, e := range ev {
		g := e.G
		switch e.Op {
		case trace.RegionBegin:
			depth[g]++
		case trace.RegionEnd:
			if depth[g] > 0 {
				depth[g]--
			}
			if o, ok := open[g]; ok && depth[g] < o.depth {
				delete(open, g)
			}
		case trace.Lock, trace.RLock:
			locks[g]++
		case trace.Unlock, trace.RUnlock:
			if locks[g] > 0 {
				locks[g]--
			}
			if o, ok := open[g]; ok && o.depth == 0 && locks[g] == 0 {
				delete(open, g)
			}
		case trace.AtomicLoad:
			if s, ok := latest[e.Obj]; ok && mark[i] && ev[s].G != g && (depth[g] > 0 || locks[g] > 0) {
				open[g] = load{i, s, depth[g]}
			}
		case trace.Read, trace.Write:
			c, seen := creator[e.Obj]
			switch {
			case !seen && e.Op == trace.Write:
				creator[e.Obj] = g
				fresh[g] = append(fresh[g], e.Obj)
			case !seen:
				creator[e.Obj] = -1
			case c >= 0 && c != g:
				p, published := pub[e.Obj]
				if o, ok := open[g]; ok && ev[o.store].G == c && published && p <= o.store {
					mark[o.at] = false
					delete(open, g)
				}
			}
		}
		if e.Op == trace.AtomicStore || e.Op == trace.AtomicRMW {
			latest[e.Obj] = i
		}
		if porRelease(e.Op) {
			for _, o := range fresh[g] {
				pub[o] = i
			}
			delete(fresh, g)
		}
	}
}

// porRelease reports whether events with op may be the source of a POR
// edge (ptg's isRelease).
func porRelease(op trace.Op) bool {
	switch op {
	case trace.Read, trace.Write, trace.AtomicLoad,
		trace.Lock, trace.Unlock, trace.RLock, trace.RUnlock,
		trace.RegionBegin, trace.RegionEnd:
		return false
	}
	return true
}
