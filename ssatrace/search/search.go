// Package search is PECAN's pattern-directed search (section 5.2): it walks
// the PTG's indices for instances of access-anomaly patterns that the
// recorded trace, or a mutation of it, can realize.
//
// A candidate must pass the mutation condition — the corrected Algorithm 1,
// l(i) ∩ l(j) = ∅ && !POR(v_i, v_j), generalized to any number of events:
//
//   - no event of the pattern happens before (POR) an event that the
//     pattern places earlier;
//   - wherever the pattern puts one goroutine's events between two events
//     of another goroutine's region, the locks the latter holds throughout
//     that gap (Algorithm 2's "some v_x between v_i and v_j": the gap must
//     not be covered by a lock the inserted event needs) do not conflict
//     with the inserted event's lockset, nor with the locks the inserted
//     goroutine holds throughout its own gap;
//   - for adjacent patterns (races), the two events' locksets do not conflict.
//
// These are necessary conditions of the hybrid model, so the search misses
// no real anomaly; the schedule generator decides each candidate exactly.
//
// Scale: events are grouped into classes — for one-event groups by
// (goroutine, object, site, op, lockset), for region groups by the sites,
// objects, ops and locksets of the matched events — so the lock condition is
// checked once per class combination, and the POR condition, monotone along
// program order, by binary search over a class's instances. Reports are
// unique per combination of source sites (pattern.Key): once one is
// confirmed its combination is skipped, and each combination gets a bounded
// number of tries.
package search

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strings"

	"github.com/pecanvet/pecanvet/ssatrace/pattern"
	"github.com/pecanvet/pecanvet/ssatrace/ptg"
	"github.com/pecanvet/pecanvet/ssatrace/trace"
)

// Options bound the search.
type Options struct {
	// MaxTries is the number of candidate instances tried per site
	// combination before it is given up (0: 8).
	MaxTries int
	// PerClass is the number of partner instances tried per instance of
	// the first group within a class combination (0: 2).
	PerClass int
	// MaxAssign is the number of goroutine assignments examined per site
	// combination before it is given up as capped (0: 1024; negative: no
	// cap). It bounds traces where many goroutines run the same code.
	MaxAssign int
	// Stop, if set, is polled every few thousand steps; once it returns
	// true the search ends and Stats.Cut says so. Use it for deadlines.
	Stop func() bool
}

// Candidate is one pattern instance proposed to the caller.
type Candidate struct {
	Pattern *pattern.Pattern
	Events  []int32 // pattern order
	Key     string
}

// Stats counts what the search did.
type Stats struct {
	Candidates int // instances proposed
	Confirmed  int // site combinations confirmed
	GaveUp     int // site combinations abandoned after MaxTries
	Capped     int // site combinations abandoned after MaxAssign goroutine assignments
	// Combinations counts the combinations of code (skeletons, one per
	// pattern group) examined: it does not grow with the number of
	// goroutines that run the same code.
	Combinations int
	// Cut is set when Stop ended the search early: the patterns from
	// CutAt on were searched partly or not at all.
	Cut   bool
	CutAt string // ID of the pattern being searched when Stop fired
}

// Run searches gr for instances of pats, in order, and calls try for each
// candidate; try reports whether it confirmed the candidate (e.g. found a
// schedule). Confirmed site combinations are not proposed again.
func Run(gr *ptg.Graph, pats []*pattern.Pattern, opt Options, try func(Candidate) bool) Stats {
	if opt.MaxTries <= 0 {
		opt.MaxTries = 8
	}
	if opt.PerClass <= 0 {
		opt.PerClass = 2
	}
	if opt.MaxAssign == 0 {
		opt.MaxAssign = 1024
	}
	s := &searcher{gr: gr, opt: opt, try: try, tries: map[string]int{}, done: map[string]bool{}, assigns: map[string]int{}, shapes: map[string]*groupIndex{}}
	// Index every region-group shape in one pass over the regions.
	var gs []*group
	for _, p := range pats {
		for _, g := range groupsOf(p) {
			if len(g.pos) > 1 {
				gs = append(gs, g)
			}
		}
	}
	s.buildRegionGroups(gs)
	// Adjacent (race) patterns: first the instances that reverse the
	// recorded order — the recorded order was already seen to be harmless.
	for pass := 0; pass < 2; pass++ {
		for _, p := range pats {
			if s.cur = p; p.Adjacent && !s.stopped() {
				s.pattern(p, pass == 0)
			}
		}
	}
	for _, p := range pats {
		if s.cur = p; !p.Adjacent && !s.stopped() {
			s.pattern(p, false)
		}
	}
	return s.stats
}

// stopped polls opt.Stop at its first call and every 4096th after, and
// latches its answer.
func (s *searcher) stopped() bool {
	if s.stats.Cut {
		return true
	}
	s.steps++
	if s.opt.Stop != nil && (s.steps-1)&4095 == 0 && s.opt.Stop() {
		s.stats.Cut = true
		if s.cur != nil {
			s.stats.CutAt = s.cur.ID()
		}
	}
	return s.stats.Cut
}

type searcher struct {
	gr    *ptg.Graph
	opt   Options
	try   func(Candidate) bool
	tries map[string]int
	done  map[string]bool
	// assigns counts the goroutine assignments examined per site key.
	assigns   map[string]int
	steps     uint64
	cur       *pattern.Pattern // the pattern being searched
	stats     Stats
	shapes    map[string]*groupIndex
	single    *groupIndex // one-event classes of shared objects
	singleAll *groupIndex // one-event classes of all objects, if a pattern needs them

	items     []item  // distinct accesses of all regions
	itemStart []int32 // region → its items in items[itemStart[r]:itemStart[r+1]]
}

// group is the part of a pattern in one atomic region.
type group struct {
	ar    int
	t     int
	pos   []int // pattern positions, increasing
	sv    []int
	at    []pattern.Access
	shape string
}

// class is a set of group instances that agree on goroutine, objects,
// sites, ops and locksets.
type class struct {
	g     int32
	objs  []int32
	sites []int32
	locks []int32 // lockset id per element
	helds []int32 // lockset id held throughout each gap between elements
	flat  []int32 // instances, len(objs) events each, in program order
}

func (c *class) count() int { return len(c.flat) / len(c.objs) }

func (c *class) inst(i int) []int32 {
	n := len(c.objs)
	return c.flat[i*n : (i+1)*n : (i+1)*n]
}

type groupIndex struct {
	classes []*class
	byObj   map[int32][]int32 // object of element 0 → class indices

	// Skeletons group the classes that differ only in their goroutine
	// (built lazily by skeletons). The matcher chooses skeletons first,
	// so that site keys and the lock condition are computed once per
	// combination of code rather than once per combination of goroutines
	// running it: with G goroutines running the same code, a k-group
	// pattern has G^k class combinations but one skeleton combination.
	skels     []skeleton
	skelByObj map[int32][]int32 // object of element 0 → skeleton indices
	allSkels  []int32
}

// skeleton is a set of classes with equal objects, sites, ops, locksets and
// held locksets, one per goroutine.
type skeleton struct {
	proto   *class  // the first member; its goroutine is not meaningful
	members []int32 // class indices, in creation order
}

// skeletons builds ix's skeletons once.
func (ix *groupIndex) skeletons(gr *ptg.Graph) {
	if ix.skelByObj != nil {
		return
	}
	ix.skelByObj = map[int32][]int32{}
	at := map[string]int32{}
	var key []byte
	for ci, c := range ix.classes {
		key = key[:0]
		for e := range c.objs {
			key = binary.LittleEndian.AppendUint32(key, uint32(c.objs[e]))
			key = binary.LittleEndian.AppendUint32(key, uint32(c.sites[e]))
			key = binary.LittleEndian.AppendUint32(key, uint32(c.locks[e]))
			key = append(key, byte(gr.Ev(c.flat[e]).Op))
			if e > 0 {
				key = binary.LittleEndian.AppendUint32(key, uint32(c.helds[e-1]))
			}
		}
		si, ok := at[string(key)]
		if !ok {
			si = int32(len(ix.skels))
			at[string(key)] = si
			ix.skels = append(ix.skels, skeleton{proto: c})
			ix.skelByObj[c.objs[0]] = append(ix.skelByObj[c.objs[0]], si)
			ix.allSkels = append(ix.allSkels, si)
		}
		ix.skels[si].members = append(ix.skels[si].members, int32(ci))
	}
}

func groupsOf(p *pattern.Pattern) []*group {
	var gs []*group
	by := map[int]*group{}
	for i := 0; i < p.Len(); i++ {
		g := by[p.AR[i]]
		if g == nil {
			g = &group{ar: p.AR[i], t: p.T[i]}
			by[p.AR[i]] = g
			gs = append(gs, g)
		}
		g.pos = append(g.pos, i)
		g.sv = append(g.sv, p.SV[i])
		g.at = append(g.at, p.AT[i])
	}
	for _, g := range gs {
		var b strings.Builder
		// Shape: element SV equalities (normalized within the group) and access types.
		norm := map[int]int{}
		for k := range g.pos {
			v, ok := norm[g.sv[k]]
			if !ok {
				v = len(norm)
				norm[g.sv[k]] = v
			}
			fmt.Fprintf(&b, "%d%s", v, g.at[k])
		}
		g.shape = b.String()
	}
	return gs
}

// matches reports whether op can stand for access type a in pattern p.
func matches(op trace.Op, a pattern.Access, p *pattern.Pattern) bool {
	if p.Chan {
		return op == trace.Send && a == pattern.R || op == trace.Close && a == pattern.W
	}
	return matchesAccess(op, a)
}

// matchesAccess reports whether memory access op can stand for a. A
// sync/atomic access matches in any pattern; a pattern that is not Atomic
// also needs a plain access in the instance (allAtomic), checked per
// class combination.
func matchesAccess(op trace.Op, a pattern.Access) bool {
	if !op.IsAccess() {
		return false
	}
	if a == pattern.R {
		return op.Reads()
	}
	return op.Writes()
}

func (s *searcher) index(p *pattern.Pattern, g *group) *groupIndex {
	if len(g.pos) == 1 {
		if sharedVar(p, g) {
			if s.single == nil {
				s.single = s.buildSingles(true)
			}
			return s.single
		}
		if s.singleAll == nil {
			s.singleAll = s.buildSingles(false)
		}
		return s.singleAll
	}
	if ix, ok := s.shapes[g.shape]; ok {
		return ix
	}
	s.buildRegionGroups([]*group{g})
	return s.shapes[g.shape]
}

type singleKey struct {
	g, obj, site, lock int32
	op                 trace.Op
}

// sharedVar reports whether the variable of one-event group g is also
// accessed in p by another thread variable's event: then every instance's
// object is accessed by two goroutines of the trace (the matcher gives
// different thread variables different goroutines).
func sharedVar(p *pattern.Pattern, g *group) bool {
	for i := 0; i < p.Len(); i++ {
		if p.SV[i] == g.sv[0] && p.T[i] != g.t {
			return true
		}
	}
	return false
}

// buildSingles classes every access event; patterns filter by op. With
// shared, only the accesses of objects that two goroutines access: a test
// that allocates a fresh variable per iteration has millions of objects
// that one goroutine each touches, and a class per access of each would
// cost hundreds of bytes per event for classes no pattern can use.
func (s *searcher) buildSingles(shared bool) *groupIndex {
	gr := s.gr
	ix := &groupIndex{byObj: map[int32][]int32{}}
	at := map[singleKey]int32{}
	for o := int32(0); o < int32(gr.NumObjects()); o++ {
		acc := gr.Accesses(o)
		if shared && !twoGoroutines(gr, acc) {
			continue
		}
		for _, e := range acc {
			ev := gr.Ev(e)
			k := singleKey{ev.G, o, ev.Site, gr.LockSet(e), ev.Op}
			c, ok := at[k]
			if !ok {
				c = int32(len(ix.classes))
				at[k] = c
				ix.classes = append(ix.classes, &class{g: ev.G, objs: []int32{o}, sites: []int32{ev.Site}, locks: []int32{k.lock}})
				ix.byObj[o] = append(ix.byObj[o], c)
			}
			ix.classes[c].flat = append(ix.classes[c].flat, e)
		}
	}
	// Instances of a class are one goroutine's, so trace order is program order.
	return ix
}

// twoGoroutines reports whether the events acc are of two goroutines or more.
func twoGoroutines(gr *ptg.Graph, acc []int32) bool {
	for _, e := range acc[min(1, len(acc)):] {
		if gr.Ev(e).G != gr.Ev(acc[0]).G {
			return true
		}
	}
	return false
}

// item is a distinct (object, site, op) access within one region, with its
// first and last occurrence.
type item struct {
	obj, site   int32
	op          trace.Op
	first, last int32
}

// regionItems lists, once, the distinct accesses of every region.
func (s *searcher) regionItems() {
	gr := s.gr
	s.itemStart = make([]int32, len(gr.Regs)+1)
	// At most one item per access inside a region: size items once.
	n := 0
	for e, r := range gr.Region {
		if r >= 0 && gr.Tr.Events[e].Op.IsAccess() {
			n++
		}
	}
	s.items = make([]item, 0, n)
	var big map[[3]int32]int
	for r := range gr.Regs {
		reg := gr.Regs[r]
		first := len(s.items)
		row := gr.G(reg.G)
		for l := gr.Local[reg.First]; l <= gr.Local[reg.Last]; l++ {
			e := row[l]
			ev := gr.Ev(e)
			if !ev.Op.IsAccess() || gr.Region[e] != int32(r) {
				continue
			}
			found := -1
			if len(s.items)-first <= 16 {
				for i := first; i < len(s.items); i++ {
					it := &s.items[i]
					if it.obj == ev.Obj && it.site == ev.Site && it.op == ev.Op {
						found = i
						break
					}
				}
				if found < 0 && len(s.items)-first == 16 {
					// Switch to a map for large regions.
					big = map[[3]int32]int{}
					for i := first; i < len(s.items); i++ {
						it := s.items[i]
						big[[3]int32{it.obj, it.site, int32(it.op)}] = i
					}
				}
			} else if i, ok := big[[3]int32{ev.Obj, ev.Site, int32(ev.Op)}]; ok {
				found = i
			}
			if found >= 0 {
				s.items[found].last = e
				continue
			}
			if len(s.items)-first > 16 {
				big[[3]int32{ev.Obj, ev.Site, int32(ev.Op)}] = len(s.items)
			}
			s.items = append(s.items, item{ev.Obj, ev.Site, ev.Op, e, e})
		}
		s.itemStart[r+1] = int32(len(s.items))
	}
}

// buildRegionGroups builds the class index of every multi-event group shape
// in gs in one pass over the regions.
func (s *searcher) buildRegionGroups(gs []*group) {
	gr := s.gr
	if s.itemStart == nil {
		s.regionItems()
	}
	type building struct {
		g  *group
		ix *groupIndex
		at map[string]int32
	}
	var bs []*building
	for _, g := range gs {
		if _, ok := s.shapes[g.shape]; ok {
			continue
		}
		b := &building{g: g, ix: &groupIndex{byObj: map[int32][]int32{}}, at: map[string]int32{}}
		s.shapes[g.shape] = b.ix
		bs = append(bs, b)
	}
	if len(bs) == 0 {
		return
	}
	var key []byte
	for r := range gr.Regs {
		reg := gr.Regs[r]
		items := s.items[s.itemStart[r]:s.itemStart[r+1]]
		if len(items) == 0 {
			continue
		}
		for _, b := range bs {
			g := b.g
			n := len(g.pos)
			if len(items) < 1 {
				continue
			}
			ix := b.ix
			// Enumerate item sequences for the group's elements: the first
			// element at its first occurrence, the last at its last, middle
			// ones at the earliest occurrence after the previous element.
			choice := make([]int, n)
			evsel := make([]int32, n)
			var rec func(k int, after int32)
			rec = func(k int, after int32) {
				if k == n {
					// SV equalities within the group.
					for a := 0; a < n; a++ {
						for c := a + 1; c < n; c++ {
							same := items[choice[a]].obj == items[choice[c]].obj
							if same != (g.sv[a] == g.sv[c]) {
								return
							}
						}
					}
					key = binary.LittleEndian.AppendUint32(key[:0], uint32(reg.G))
					for a := 0; a < n; a++ {
						it := items[choice[a]]
						key = binary.LittleEndian.AppendUint32(key, uint32(it.obj))
						key = binary.LittleEndian.AppendUint32(key, uint32(it.site))
						key = binary.LittleEndian.AppendUint32(key, uint32(gr.LockSet(evsel[a])))
						key = append(key, byte(it.op))
						if a > 0 {
							key = binary.LittleEndian.AppendUint32(key, uint32(gr.SetOf(gr.Held(evsel[a-1], evsel[a]))))
						}
					}
					c, ok := b.at[string(key)]
					if !ok {
						cl := &class{g: reg.G}
						for a := 0; a < n; a++ {
							it := items[choice[a]]
							cl.objs = append(cl.objs, it.obj)
							cl.sites = append(cl.sites, it.site)
							cl.locks = append(cl.locks, gr.LockSet(evsel[a]))
							if a > 0 {
								cl.helds = append(cl.helds, gr.SetOf(gr.Held(evsel[a-1], evsel[a])))
							}
						}
						c = int32(len(ix.classes))
						b.at[string(key)] = c
						ix.classes = append(ix.classes, cl)
						ix.byObj[cl.objs[0]] = append(ix.byObj[cl.objs[0]], c)
					}
					ix.classes[c].flat = append(ix.classes[c].flat, evsel...)
					return
				}
				for i, it := range items {
					if !matchesAccess(it.op, g.at[k]) {
						continue
					}
					var e int32
					switch {
					case k == 0:
						e = it.first
					case k == n-1:
						e = it.last
					default:
						e = s.nextOcc(reg, it, after)
					}
					if e <= after {
						continue
					}
					choice[k] = i
					evsel[k] = e
					rec(k+1, e)
				}
			}
			rec(0, -1)
		}
	}
}

// nextOcc returns the first occurrence of it in region reg after event after, or -1.
func (s *searcher) nextOcc(reg ptg.RegionInfo, it item, after int32) int32 {
	gr := s.gr
	row := gr.G(reg.G)
	start := gr.Local[reg.First]
	if after >= reg.First {
		start = gr.Local[after] + 1
	}
	for l := start; l <= gr.Local[reg.Last]; l++ {
		e := row[l]
		ev := gr.Ev(e)
		if ev.Obj == it.obj && ev.Site == it.site && ev.Op == it.op && ev.Op.IsAccess() {
			return e
		}
	}
	return -1
}

// pattern searches one pattern.
func (s *searcher) pattern(p *pattern.Pattern, reversedOnly bool) {
	s.cur = p
	gs := groupsOf(p)
	ixs := make([]*groupIndex, len(gs))
	for i, g := range gs {
		ixs[i] = s.index(p, g)
		ixs[i].skeletons(s.gr)
	}
	m := &matcher{s: s, p: p, gs: gs, ixs: ixs, reversedOnly: reversedOnly,
		cls: make([]*class, len(gs)), sk: make([]*skeleton, len(gs)), objOf: unbound(p.Vars()), gOf: unbound(p.Threads()),
		siteIdx: make([]int32, p.Len())}
	m.classes(0)
}

type matcher struct {
	s            *searcher
	p            *pattern.Pattern
	gs           []*group
	ixs          []*groupIndex
	reversedOnly bool
	cls          []*class
	sk           []*skeleton
	objOf        []int32 // SV var → object, -1 unbound
	gOf          []int32 // T var → goroutine, -1 unbound
	keyBuf       []byte
	siteIdx      []int32
}

// classes chooses a skeleton for group k and recurses; goroutines are
// assigned per site combination, in assign.
func (m *matcher) classes(k int) {
	if m.s.stopped() {
		return
	}
	if k == len(m.gs) {
		m.combination()
		return
	}
	g := m.gs[k]
	ix := m.ixs[k]
	var cand []int32
	if o := m.objOf[g.sv[0]]; o >= 0 {
		cand = ix.skelByObj[o]
	} else {
		cand = ix.allSkels
	}
	gr := m.s.gr
	var newSV [8]int
next:
	for _, si := range cand {
		sk := &ix.skels[si]
		c := sk.proto
		// Ops must match the group's access types (singles are shared by all).
		for e := range g.pos {
			if !matches(gr.Ev(c.flat[e]).Op, g.at[e], m.p) {
				continue next
			}
		}
		// Object bindings.
		nNew := 0
		ok := true
		for e, v := range g.sv {
			if o := m.objOf[v]; o >= 0 {
				if o != c.objs[e] {
					ok = false
					break
				}
				continue
			}
			for _, o2 := range m.objOf {
				if o2 == c.objs[e] {
					ok = false
					break
				}
			}
			if !ok {
				break
			}
			m.objOf[v] = c.objs[e]
			if nNew < len(newSV) {
				newSV[nNew] = v
				nNew++
			}
		}
		if ok {
			m.sk[k] = sk
			m.cls[k] = c
			m.classes(k + 1)
		}
		for _, v := range newSV[:nNew] {
			m.objOf[v] = -1
		}
	}
}

// assign chooses, for group k, a class of its skeleton whose goroutine
// fits the thread bindings (same T var, same goroutine; different,
// different), and at the end tries the instances. It reports whether the
// site combination is finished (confirmed, given up or capped).
func (m *matcher) assign(k int, key string, elem [][2]int) bool {
	s := m.s
	if s.stopped() {
		return true
	}
	if k == len(m.gs) {
		if s.opt.MaxAssign > 0 && s.assigns[key] >= s.opt.MaxAssign {
			// Counted once: the tries mark keeps the key from coming back.
			s.stats.Capped++
			s.tries[key] = s.opt.MaxTries
			return true
		}
		s.assigns[key]++
		m.instances(key, elem)
		return s.done[key] || s.tries[key] >= s.opt.MaxTries
	}
	g := m.gs[k]
	ix := m.ixs[k]
	boundT := m.gOf[g.t]
next:
	for _, ci := range m.sk[k].members {
		c := ix.classes[ci]
		if boundT >= 0 {
			if boundT != c.g {
				continue
			}
		} else {
			for _, gg := range m.gOf {
				if gg == c.g {
					continue next
				}
			}
		}
		m.gOf[g.t] = c.g
		m.cls[k] = c
		fin := m.assign(k+1, key, elem)
		m.gOf[g.t] = boundT
		if fin {
			return true
		}
	}
	return false
}

// combination handles one choice of classes: site key, lock condition,
// then instances.
func (m *matcher) combination() {
	m.s.stats.Combinations++
	p := m.p
	n := p.Len()
	elem := make([][2]int, n) // position → (group, element)
	for gi, g := range m.gs {
		for e, pos := range g.pos {
			m.siteIdx[pos] = m.cls[gi].sites[e]
			elem[pos] = [2]int{gi, e}
		}
	}
	m.keyBuf = siteKey(m.keyBuf[:0], p, m.siteIdx)
	if m.s.done[string(m.keyBuf)] || m.s.tries[string(m.keyBuf)] >= m.s.opt.MaxTries {
		return
	}
	key := string(m.keyBuf)
	if !p.Atomic && !p.Chan && m.allAtomic(elem) {
		// Two sync/atomic accesses never race (the race detector's rule);
		// a class's ops are fixed, so no instance of the combination is one.
		return
	}
	if !m.locksOK(elem) {
		return
	}
	saved := append([]*class(nil), m.cls...)
	m.assign(0, key, elem)
	copy(m.cls, saved)
}

// allAtomic reports whether every event of the class combination is a
// sync/atomic access.
func (m *matcher) allAtomic(elem [][2]int) bool {
	gr := m.s.gr
	for _, ge := range elem {
		c := m.cls[ge[0]]
		if !gr.Ev(c.flat[ge[1]]).Op.IsAtomic() {
			return false
		}
	}
	return true
}

// locksOK is the lock part of the mutation condition for a class combination.
func (m *matcher) locksOK(elem [][2]int) bool {
	gr := m.s.gr
	n := len(elem)
	// active[g] = held lockset of group g's current gap, if inside one.
	lastPos := make([]int, len(m.gs))
	firstPos := make([]int, len(m.gs))
	for gi, g := range m.gs {
		firstPos[gi] = g.pos[0]
		lastPos[gi] = g.pos[len(g.pos)-1]
	}
	gapAt := func(gi, pos int) (int32, bool) {
		// The gap of group gi that contains position pos (strictly inside).
		g := m.gs[gi]
		for e := 0; e+1 < len(g.pos); e++ {
			if g.pos[e] < pos && pos < g.pos[e+1] {
				return m.cls[gi].helds[e], true
			}
		}
		return 0, false
	}
	for pos := 0; pos < n; pos++ {
		gi, e := elem[pos][0], elem[pos][1]
		l := m.cls[gi].locks[e]
		for gj := range m.gs {
			if gj == gi || m.gs[gj].t == m.gs[gi].t {
				continue
			}
			if h, in := gapAt(gj, pos); in && gr.Conflict(h, l) {
				return false
			}
		}
		if m.p.Adjacent && pos+1 < n {
			gk, ek := elem[pos+1][0], elem[pos+1][1]
			if m.gs[gk].t != m.gs[gi].t && gr.Conflict(l, m.cls[gk].locks[ek]) {
				return false
			}
		}
	}
	// Gaps of different goroutines that overlap in the pattern's order.
	for gi := range m.gs {
		for gj := gi + 1; gj < len(m.gs); gj++ {
			if m.gs[gi].t == m.gs[gj].t {
				continue
			}
			for a := 0; a+1 < len(m.gs[gi].pos); a++ {
				for b := 0; b+1 < len(m.gs[gj].pos); b++ {
					lo := max(m.gs[gi].pos[a], m.gs[gj].pos[b])
					hi := min(m.gs[gi].pos[a+1], m.gs[gj].pos[b+1])
					if lo < hi && gr.Conflict(m.cls[gi].helds[a], m.cls[gj].helds[b]) {
						return false
					}
				}
			}
		}
	}
	return true
}

// instances tries instance tuples of the chosen classes that pass the POR
// condition.
func (m *matcher) instances(key string, elem [][2]int) {
	gr := m.s.gr
	n := len(elem)
	chosen := make([][]int32, len(m.gs))
	events := make([]int32, n)
	// Enumerate from the group with the fewest instances; the others are
	// found by binary search relative to the groups already chosen.
	order := make([]int, len(m.gs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return m.cls[order[a]].count() < m.cls[order[b]].count() })
	// okWith reports whether instance in of group gi is compatible with the
	// groups chosen before it (order[:k]): -1 too early, +1 too late,
	// 0 fine, 2 incompatible for another reason.
	okWith := func(k int, in []int32) int {
		gi := order[k]
		g := m.gs[gi]
		for e, pos := range g.pos {
			x := in[e]
			for _, gj := range order[:k] {
				for f, pos2 := range m.gs[gj].pos {
					y := chosen[gj][f]
					if pos2 < pos {
						// y must be able to precede x.
						if gr.POR(x, y) {
							return -1
						}
						if gr.Ev(x).G == gr.Ev(y).G && gr.Local[y] > gr.Local[x] {
							return -1
						}
					} else {
						if gr.POR(y, x) {
							return +1
						}
						if gr.Ev(x).G == gr.Ev(y).G && gr.Local[y] < gr.Local[x] {
							return +1
						}
					}
					if gr.Region[x] >= 0 && gr.Region[x] == gr.Region[y] && m.gs[gj].ar != g.ar {
						return 2
					}
				}
			}
		}
		return 0
	}
	var rec func(k int) bool
	rec = func(k int) bool {
		if k == len(m.gs) {
			for gj, g := range m.gs {
				for e, pos := range g.pos {
					events[pos] = chosen[gj][e]
				}
			}
			if m.reversedOnly && !(events[n-1] < events[0]) {
				return false
			}
			if m.p.Atomic && commuting(gr, events) {
				// Never a violation; a site's update kind is fixed, so
				// the other instances of the combination are alike.
				m.s.done[key] = true
				return true
			}
			m.s.stats.Candidates++
			m.s.tries[key]++
			sites := make([]string, n)
			for i, e := range events {
				sites[i] = gr.Tr.Site(gr.Ev(e))
			}
			if m.s.try(Candidate{Pattern: m.p, Events: append([]int32(nil), events...), Key: pattern.Key(m.p, sites)}) {
				m.s.done[key] = true
				m.s.stats.Confirmed++
				return true
			}
			if m.s.tries[key] >= m.s.opt.MaxTries {
				m.s.stats.GaveUp++
				return true
			}
			return false
		}
		gi := order[k]
		c := m.cls[gi]
		cnt := c.count()
		if k == 0 {
			for i := 0; i < cnt; i++ {
				if m.s.stopped() {
					return true
				}
				chosen[gi] = c.inst(i)
				if rec(1) {
					return true
				}
			}
			return false
		}
		// Instances are in program order and the POR condition is monotone:
		// the compatible ones form a range.
		lo := sort.Search(cnt, func(i int) bool { return okWith(k, c.inst(i)) != -1 })
		hi := lo + sort.Search(cnt-lo, func(i int) bool { return okWith(k, c.inst(lo+i)) == +1 })
		if lo >= hi {
			return false
		}
		// Try the ones nearest the anchor's instance first.
		anchor := chosen[order[0]][0]
		mid := lo + sort.Search(hi-lo, func(i int) bool { return c.inst(lo + i)[0] >= anchor })
		tried := 0
		for d := 0; lo <= mid-1-d || mid+d < hi; d++ {
			for _, i := range [2]int{mid + d, mid - 1 - d} {
				if i < lo || i >= hi {
					continue
				}
				in := c.inst(i)
				if okWith(k, in) != 0 {
					continue
				}
				chosen[gi] = in
				if rec(k + 1) {
					return true
				}
				if tried++; tried >= m.s.opt.PerClass {
					return false
				}
			}
		}
		return false
	}
	rec(0)
}

// commuting reports whether the events are all commutative atomic updates
// (Add, And or Or), one kind per object: in any order they read-modify-write
// to the same final values, so their interleaving is no violation.
func commuting(gr *ptg.Graph, events []int32) bool {
	var objs [4]int32
	var kinds [4]uint8
	n := 0
	for _, e := range events {
		ev := gr.Ev(e)
		u := ev.Flags & trace.UpdateFlags
		if ev.Op != trace.AtomicRMW || u == 0 {
			return false
		}
		found := false
		for i := 0; i < n; i++ {
			if objs[i] == ev.Obj {
				if kinds[i] != u {
					return false
				}
				found = true
			}
		}
		if !found {
			if n == len(objs) {
				return false // more objects than patterns have: be conservative
			}
			objs[n], kinds[n] = ev.Obj, u
			n++
		}
	}
	return true
}

// siteKey appends to b a compact key with the same equivalence as
// pattern.Key on site names (site indices and names correspond one to one):
// the (access, site) items in pattern order, sorted for adjacent pairs.
func siteKey(b []byte, p *pattern.Pattern, sites []int32) []byte {
	item := func(i int) uint64 { return uint64(uint32(sites[i]))<<8 | uint64(p.AT[i]) }
	if p.Adjacent && len(sites) == 2 {
		a, c := item(0), item(1)
		if c < a {
			a, c = c, a
		}
		b = binary.LittleEndian.AppendUint64(b, a)
		return binary.LittleEndian.AppendUint64(b, c)
	}
	for i := range sites {
		b = binary.LittleEndian.AppendUint64(b, item(i))
	}
	return b
}

func unbound(n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = -1
	}
	return s
}
