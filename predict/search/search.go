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
	"cmp"
	"encoding/binary"
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict/ptg"
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
	// Prefer, if set, names the site combinations to search first (the
	// static analysis's candidates): every pattern is searched for them,
	// in order, before any pattern is searched for the others. It gets
	// the combination's sites in pattern order, and must not keep them.
	Prefer func(sites []int32) bool
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
	Unobserved int // instances without effect (see unobserved), not proposed
	Capped     int // site combinations abandoned after MaxAssign goroutine assignments
	// RegionsCapped: the index of the atomic regions' access sequences
	// stopped at MaxRegionTuples; violations inside the rest are missed.
	RegionsCapped bool
	// Combinations counts the combinations of code (skeletons, one per
	// pattern group) examined: it does not grow with the number of
	// goroutines that run the same code.
	Combinations int
	// Cut is set when Stop ended the search early: the patterns from
	// CutAt on were searched partly or not at all.
	Cut   bool
	CutAt string // ID of the pattern being searched when Stop fired; "" while indexing the atomic regions
	// CutInPreferred: Stop fired while the preferred combinations
	// (Options.Prefer) were searched; if false and Cut, all of them were.
	CutInPreferred bool
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
	needShared := false
	for _, p := range pats {
		for _, g := range groupsOf(p) {
			switch {
			case len(g.pos) > 1:
				gs = append(gs, g)
			case sharedVar(p, g):
				needShared = true
			default:
				s.needAll = true
			}
		}
	}
	if (needShared || s.needAll) && len(gs) > 0 && runtime.GOMAXPROCS(0) > 1 {
		// The one-event classes are built on another core meanwhile: the
		// two indices read the graph and write only their own index, and
		// the result is the one index would build on its own when the
		// first pattern needs it.
		done := make(chan struct{})
		go func() {
			defer close(done)
			if s.needAll {
				s.singleAll = s.buildSingles(false)
				if needShared {
					s.single = sharedOf(s.singleAll)
				}
			} else {
				s.single = s.buildSingles(true)
			}
		}()
		s.buildRegionGroups(gs)
		<-done
	} else {
		s.buildRegionGroups(gs)
	}
	phases := []int8{0}
	if opt.Prefer != nil {
		phases = []int8{1, -1}
	}
	for _, ph := range phases {
		s.phase = ph
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
		if s.stats.Cut {
			s.stats.CutInPreferred = ph == 1
			break
		}
	}
	return s.stats
}

// stopNow polls opt.Stop now (for loops whose steps are costly) and
// latches its answer as stopped does.
func (s *searcher) stopNow() bool {
	if !s.stats.Cut && s.opt.Stop != nil && s.opt.Stop() {
		s.stats.Cut = true
		if s.cur != nil {
			s.stats.CutAt = s.cur.ID()
		}
	}
	return s.stats.Cut
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
	needAll   bool        // some pattern needs singleAll
	// phase: 1 searches only the combinations opt.Prefer names, -1 only
	// the others, 0 all.
	phase int8

	// The distinct accesses of all regions, in chunks: region r's items
	// are itemChunks[itemRange[3r]][itemRange[3r+1]:itemRange[3r+2]].
	itemChunks [][]item
	itemRange  []int32
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
			if s.single == nil && s.singleAll == nil && s.needAll {
				s.singleAll = s.buildSingles(false) // needed anyway: one pass, not two
			}
			if s.single == nil && s.singleAll != nil {
				s.single = sharedOf(s.singleAll)
			}
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

// sharedOf is the index buildSingles(true) gives, taken from all's (of
// buildSingles(false)): the classes of the objects that two goroutines
// access, in the same order (by object, then first instance).
func sharedOf(all *groupIndex) *groupIndex {
	ix := &groupIndex{byObj: map[int32][]int32{}}
	for _, c := range all.classes {
		obj := c.objs[0]
		cs, ok := ix.byObj[obj]
		if !ok {
			shared := false
			for _, j := range all.byObj[obj] {
				if all.classes[j].g != c.g {
					shared = true
					break
				}
			}
			if !shared {
				ix.byObj[obj] = nil
				continue
			}
		} else if cs == nil {
			continue
		}
		ix.byObj[obj] = append(cs, int32(len(ix.classes)))
		ix.classes = append(ix.classes, c)
	}
	for obj, cs := range ix.byObj {
		if cs == nil {
			delete(ix.byObj, obj)
		}
	}
	return ix
}

// buildSingles classes every access event (and channel send and close,
// which channel patterns match); patterns filter by op. With shared, only
// the accesses of objects that two goroutines access: a test that
// allocates a fresh variable per iteration has millions of objects that
// one goroutine each touches, and a class per access of each would cost
// hundreds of bytes per event for classes no pattern can use.
//
// Classes are numbered by object, then by their first instance, and each
// class's instances are in trace order (which is program order: they are
// one goroutine's). The events are read in trace order, not object by
// object: walking each object's accesses jumped across the whole trace
// and was most of the time of this function at 10^6 events.
func (s *searcher) buildSingles(shared bool) *groupIndex {
	gr := s.gr
	evs := gr.Tr.Events
	nobj := gr.NumObjects()
	indexed := func(op trace.Op) bool { return op.IsAccess() || op == trace.Send || op == trace.Close }
	var keep []bool // object → classed (shared only)
	if shared {
		keep = make([]bool, nobj)
		firstG := make([]int32, nobj) // object → 1 + the first goroutine to access it, 0: none yet
		for i := range evs {
			e := &evs[i]
			if !indexed(e.Op) {
				continue
			}
			if f := firstG[e.Obj]; f == 0 {
				firstG[e.Obj] = e.G + 1
			} else if f != e.G+1 {
				keep[e.Obj] = true
			}
		}
	}
	// Pass 1: the class of every classed event, numbered in order of
	// first appearance. A small direct-mapped cache in front of the map
	// finds most repeats without hashing the key.
	var keys []singleKey // provisional class → key
	var counts []int32   // provisional class → instances
	at := map[singleKey]int32{}
	const cacheBits = 12
	var cache [1 << cacheBits]int32      // slot → 1 + provisional class
	of := make([]int32, 0, len(evs)/2)   // classed event → provisional class
	evOf := make([]int32, 0, len(evs)/2) // classed event → its index
	for i := range evs {
		e := &evs[i]
		if !indexed(e.Op) || shared && !keep[e.Obj] {
			continue
		}
		k := singleKey{e.G, e.Obj, e.Site, gr.LockSet(int32(i)), e.Op}
		h := (uint32(k.g)*0x9e3779b1 ^ uint32(k.obj)*0x85ebca77 ^ uint32(k.site)*0xc2b2ae3d ^ uint32(k.lock)*0x27d4eb2f ^ uint32(k.op)*0x165667b1) >> (32 - cacheBits)
		c := cache[h] - 1
		if c < 0 || keys[c] != k {
			var ok bool
			if c, ok = at[k]; !ok {
				c = int32(len(keys))
				at[k] = c
				keys = append(keys, k)
				counts = append(counts, 0)
			}
			cache[h] = c + 1
		}
		counts[c]++
		of = append(of, c)
		evOf = append(evOf, int32(i))
	}
	// Final numbering: by object, then by first instance (provisional
	// classes are already in order of first instance).
	objStart := make([]int32, nobj+1)
	for _, k := range keys {
		objStart[k.obj+1]++
	}
	for o := 0; o < nobj; o++ {
		objStart[o+1] += objStart[o]
	}
	final := make([]int32, len(keys))
	for c, k := range keys {
		final[c] = objStart[k.obj]
		objStart[k.obj]++
	}
	ix := &groupIndex{byObj: map[int32][]int32{}, classes: make([]*class, len(keys))}
	// Every class's instances in one array, each class a capped window of
	// it (so that appending to one cannot overwrite the next).
	flat := make([]int32, len(of))
	next := make([]int32, len(keys)) // provisional class → its next free slot in flat
	off := int32(0)
	for c := range keys {
		next[c] = off
		off += counts[c]
	}
	for c, k := range keys {
		lo, hi := next[c], next[c]+counts[c]
		ix.classes[final[c]] = &class{g: k.g, objs: []int32{k.obj}, sites: []int32{k.site}, locks: []int32{k.lock}, flat: flat[lo:hi:hi]}
	}
	for j, c := range of {
		flat[next[c]] = evOf[j]
		next[c]++
	}
	for ci, c := range ix.classes {
		ix.byObj[c.objs[0]] = append(ix.byObj[c.objs[0]], int32(ci))
	}
	return ix
}

// item is a distinct (object, site, op) access within one region, with its
// first and last occurrence.
type item struct {
	obj, site   int32
	op          trace.Op
	first, last int32
}

// regionItems lists, once, the distinct accesses of every region, in
// order of first occurrence (regions are thus listed in the order they
// end). buildRegionGroups needs the list only when the enumeration at
// region ends gives up (enumerateAtEnds).
func (s *searcher) regionItems() {
	rng := make([]int32, 3*len(s.gr.Regs))
	// Items are appended to fixed chunks, not to one growing slice:
	// at 10^7 events the growing slice's copies (into fresh memory) were
	// most of this function's time.
	var chunks [][]item
	items := make([]item, 0, chunkLen)
	s.scanRegions(func(r int32, b []item) bool {
		if len(items)+len(b) > cap(items) {
			chunks = append(chunks, items)
			items = make([]item, 0, max(chunkLen, len(b)))
		}
		rng[3*r], rng[3*r+1] = int32(len(chunks)), int32(len(items))
		items = append(items, b...)
		rng[3*r+2] = int32(len(items))
		return true
	})
	s.itemChunks, s.itemRange = append(chunks, items), rng
}

// scanRegions calls f with every region's distinct accesses, in order of
// first occurrence, when it reads the region's last event, until f
// returns false. f must not keep items.
//
// It reads the events in trace order. A goroutine has one region open at
// a time, so each goroutine collects its open region's items in a buffer
// of its own. Walking each region through its goroutine's row was a
// quarter of the search's own time at 10^6 events.
func (s *searcher) scanRegions(f func(r int32, items []item) bool) {
	gr := s.gr
	evs := gr.Tr.Events
	buf := make([][]item, gr.NG) // goroutine → the items of its open region
	// Regions with more than linear distinct items look them up in a map.
	const linear = 16
	type bigKey struct {
		r, obj, site int32
		op           trace.Op
	}
	var big map[bigKey]int32 // → index in the goroutine's buffer
	for e, r := range gr.Region {
		if r < 0 {
			continue
		}
		ev := &evs[e]
		g := ev.G
		if ev.Op.IsAccess() {
			b := buf[g]
			found := -1
			if len(b) <= linear {
				for i := range b {
					if it := &b[i]; it.obj == ev.Obj && it.site == ev.Site && it.op == ev.Op {
						found = i
						break
					}
				}
			} else if i, ok := big[bigKey{r, ev.Obj, ev.Site, ev.Op}]; ok {
				found = int(i)
			}
			switch {
			case found >= 0:
				b[found].last = int32(e)
			default:
				if len(b) == linear {
					// Switch to the map: enter the items so far.
					if big == nil {
						big = map[bigKey]int32{}
					}
					for i, it := range b {
						big[bigKey{r, it.obj, it.site, it.op}] = int32(i)
					}
				}
				if len(b) >= linear {
					big[bigKey{r, ev.Obj, ev.Site, ev.Op}] = int32(len(b))
				}
				buf[g] = append(b, item{ev.Obj, ev.Site, ev.Op, int32(e), int32(e)})
			}
		}
		if int32(e) == gr.Regs[r].Last {
			b := buf[g]
			buf[g] = b[:0]
			if !f(r, b) {
				return
			}
		}
	}
}

// chunkLen is the length of the chunks region items and group instances
// are collected in (a variable for the tests, which make it small).
var chunkLen = 1 << 15

// regionItemsOf returns region r's items.
func (s *searcher) regionItemsOf(r int) []item {
	x := s.itemRange[3*r:]
	return s.itemChunks[x[0]][x[1]:x[2]]
}

// buildRegionGroups builds the class index of every multi-event group shape
// in gs in one pass over the regions.
//
// Groups with the same number of elements share the enumeration of item
// sequences (which events a sequence selects does not depend on the
// group's access types or variables) and the key of each sequence's
// class; each group then takes the sequences that fit its access types
// and variable equalities. Every group gets its classes and instances in
// the same order as if it were enumerated alone (region by region in
// order of region id, sequences in lexicographic order of items).
//
// The sequences are enumerated as each region ends, while its items are
// at hand (enumerateAtEnds), not from a stored list of every region's
// items read again in order of region id: that list's writes and reads
// were a third of the index's time at 10^6 events. Only the tuple cap
// depends on the order regions are enumerated in: an enumeration that
// reaches it is done again in region order, as before.
func (s *searcher) buildRegionGroups(gs []*group) {
	byN := map[int][]*regionBuilding{}
	var ns []int
	var all []*regionBuilding
	for _, g := range gs {
		if _, ok := s.shapes[g.shape]; ok {
			continue
		}
		b := &regionBuilding{g: g, ix: &groupIndex{}}
		s.shapes[g.shape] = b.ix
		n := len(g.pos)
		if byN[n] == nil {
			ns = append(ns, n)
		}
		byN[n] = append(byN[n], b)
		all = append(all, b)
	}
	sort.Ints(ns)
	enums := func() []*regionEnum {
		var ens []*regionEnum
		for _, n := range ns {
			bs := byN[n]
			// At most 64 groups per enumeration: alive sets are bit masks.
			for len(bs) > 0 {
				k := min(len(bs), 64)
				ens = append(ens, s.newEnum(n, bs[:k]))
				bs = bs[k:]
			}
		}
		return ens
	}
	if len(all) == 0 {
		return
	}
	if !s.enumerateAtEnds(enums()) {
		for _, b := range all {
			b.cls, b.insts, b.first, b.ix.classes = nil, nil, nil, nil
		}
		if s.itemRange == nil {
			s.regionItems()
		}
		for _, en := range enums() {
			s.enumerate(en)
		}
	}
	for _, b := range all {
		b.finish(len(b.g.pos))
	}
}

// enumerateAtEnds runs the enumerations ens over every region when the
// scan reads its last event. It returns false, with the indices partial,
// if an enumeration reached MaxRegionTuples: which sequences the cap
// leaves out depends on the order, and buildRegionGroups then enumerates
// in region order.
func (s *searcher) enumerateAtEnds(ens []*regionEnum) bool {
	gr := s.gr
	ok := true
	s.scanRegions(func(r int32, items []item) bool {
		if len(items) == 0 {
			return true
		}
		if s.stopped() {
			return false
		}
		if len(items) > maxRegionItems {
			s.stats.RegionsCapped = true // see enumerate
			return true
		}
		for _, en := range ens {
			if en.done {
				continue
			}
			en.reg, en.rid, en.ord, en.items = gr.Regs[r], r, 0, items
			en.rec(0, -1, en.all)
			if en.capped {
				ok = false
				return false
			}
		}
		return true
	})
	return ok
}

// regionBuilding is the class index of one group shape being built.
type regionBuilding struct {
	g  *group
	ix *groupIndex
	// cls maps a sequence class (regionEnum's tuple id) to 1 + the index
	// of its class in ix; 0: not seen by this group yet.
	cls []int32
	// first: class → where its first instance was found, region id << 32
	// | the sequence's ordinal in the region; finish numbers the classes
	// in this order (the order of region ids).
	first []uint64
	// The instances found, in order, each as its class followed by its n
	// events, in chunks (no record is split between two). They are
	// distributed to their classes at the end, into one array: appending
	// to each class as found was a fifth of the enumeration's time, and
	// one growing slice's copies were as much at 10^7 events.
	insts [][]int32
}

// accessKind is 1 for an op that reads, 2 for one that writes, 3 for both.
func accessKind(op trace.Op) int { return int(opKinds[op]) }

var opKinds = func() (k [256]uint8) {
	for op := range k {
		if trace.Op(op).Reads() {
			k[op] |= 1
		}
		if trace.Op(op).Writes() {
			k[op] |= 2
		}
	}
	return k
}()

// regionEnum enumerates the item sequences of n elements of every region
// for up to 64 groups.
type regionEnum struct {
	s      *searcher
	n      int
	bs     []*regionBuilding
	levels [][4]uint64 // element → access kind → the groups it fits
	all    uint64      // every group
	reg    ptg.RegionInfo
	rid    int32  // reg's id
	ord    uint32 // sequences chosen in reg so far
	items  []item
	choice []int
	evsel  []int32

	// Sequence classes: the key of a sequence (goroutine; per element
	// object, site, lockset and op; per gap the lockset held throughout)
	// interned to a tuple id, in an open-addressing table on a hash of
	// the key (a Go map on the key as a string, behind a direct-mapped
	// cache, spent a third of this in hashing and conflicts).
	width  int
	key    []int32
	keys   []int32  // tuple id → key, width each
	hashes []uint32 // tuple id → hash of its key
	table  []int32  // slot → 1 + tuple id, 0: empty; at most half full
	// same: the groups whose two elements (n == 2) are one variable.
	same uint64

	// A region of thousands of distinct accesses (a call looping over a
	// huge slice: conc's iter tests) has millions of sequences, cubic in
	// its size for three-element groups. leaves counts the sequences
	// chosen, so that the deadline is polled among them (the search's
	// budget reaches the indexing), and the distinct ones are capped at
	// MaxRegionTuples (memory). done: stop enumerating.
	leaves int
	done   bool
	capped bool // done at MaxRegionTuples
}

// maxRegionItems is the most distinct accesses a region may have for its
// sequences to be enumerated. A method of a few hundred accesses is
// common; thousands come from a call looping over a huge slice (conc's
// iter tests: 10,000 elements, each an object of its own), whose
// sequences number len^n and whose atomicity violations are left out,
// with a warning.
const maxRegionItems = 1024

// MaxRegionTuples bounds the distinct access sequences one enumeration of
// atomic regions interns (about 100 bytes each): past it the regions'
// index is left incomplete, and the search says so (Stats.RegionsCapped).
var MaxRegionTuples = 1 << 20

func (s *searcher) newEnum(n int, bs []*regionBuilding) *regionEnum {
	en := &regionEnum{s: s, n: n, bs: bs, levels: make([][4]uint64, n), choice: make([]int, n), evsel: make([]int32, n),
		width: 1 + 5*n, table: make([]int32, 1<<12)}
	en.key = make([]int32, en.width)
	for bi, b := range bs {
		if n == 2 && b.g.sv[0] == b.g.sv[1] {
			en.same |= 1 << bi
		}
		for k, a := range b.g.at {
			for kind := 1; kind < 4; kind++ {
				if a == pattern.R && kind&1 != 0 || a != pattern.R && kind&2 != 0 {
					en.levels[k][kind] |= 1 << bi
				}
			}
		}
	}
	en.all = uint64(1)<<len(bs) - 1
	if len(bs) == 64 {
		en.all = ^uint64(0)
	}
	return en
}

// enumerate runs en over every region in order of region id, from the
// stored items (regionItems).
func (s *searcher) enumerate(en *regionEnum) {
	gr := s.gr
	for r := range gr.Regs {
		if en.done || s.stopped() {
			break
		}
		items := s.regionItemsOf(r)
		if len(items) == 0 {
			continue
		}
		if len(items) > maxRegionItems {
			// Its sequences alone would be millions (len(items)^n): a
			// call looping over a huge slice, whose atomicity
			// violations are left out, with a warning.
			s.stats.RegionsCapped = true
			continue
		}
		en.reg, en.rid, en.ord, en.items = gr.Regs[r], int32(r), 0, items
		en.rec(0, -1, en.all)
	}
}

// rec chooses element k's item: the first element at the item's first
// occurrence, the last at its last, middle ones at the earliest occurrence
// after the previous element. alive is the set of groups whose access
// types the elements chosen so far fit.
func (en *regionEnum) rec(k int, after int32, alive uint64) {
	if en.n == 2 {
		// The built-in patterns' groups all have two elements: the same
		// enumeration as below, without the recursion.
		l0, l1 := &en.levels[0], &en.levels[1]
		for i := range en.items {
			if en.done {
				return
			}
			a0 := alive & l0[opKinds[en.items[i].op]]
			if a0 == 0 {
				continue
			}
			e0 := en.items[i].first
			for j := range en.items {
				if en.done {
					return
				}
				a1 := a0 & l1[opKinds[en.items[j].op]]
				if a1 == 0 || en.items[j].last <= e0 {
					continue
				}
				en.choice[0], en.choice[1] = i, j
				en.evsel[0], en.evsel[1] = e0, en.items[j].last
				en.leaf(a1)
			}
		}
		return
	}
	if k == en.n {
		en.leaf(alive)
		return
	}
	for i := range en.items {
		if en.done {
			return
		}
		it := &en.items[i]
		a := alive & en.levels[k][accessKind(it.op)]
		if a == 0 {
			continue
		}
		var e int32
		switch {
		case k == 0:
			e = it.first
		case k == en.n-1:
			e = it.last
		default:
			e = en.s.nextOcc(en.reg, *it, after)
		}
		if e <= after {
			continue
		}
		en.choice[k] = i
		en.evsel[k] = e
		en.rec(k+1, e, a)
	}
}

// leaf adds the chosen sequence to the class of every group in alive whose
// variable equalities it fits.
func (en *regionEnum) leaf(alive uint64) {
	if en.leaves++; en.leaves&255 == 0 && en.s.stopNow() {
		en.done = true
		return
	}
	if len(en.keys) >= MaxRegionTuples*en.width {
		en.done, en.capped = true, true
		en.s.stats.RegionsCapped = true
		return
	}
	ord := en.ord
	en.ord++
	n := en.n
	if n == 2 {
		// The variable equalities, for all groups at once.
		if en.items[en.choice[0]].obj == en.items[en.choice[1]].obj {
			alive &= en.same
		} else {
			alive &^= en.same
		}
	}
	tid := int32(-1)
	for ; alive != 0; alive &= alive - 1 {
		bi := bits.TrailingZeros64(alive)
		b := en.bs[bi]
		if n != 2 {
			sv := b.g.sv
			ok := true
			for a := 0; a < n && ok; a++ {
				for c := a + 1; c < n; c++ {
					same := en.items[en.choice[a]].obj == en.items[en.choice[c]].obj
					if same != (sv[a] == sv[c]) {
						ok = false
						break
					}
				}
			}
			if !ok {
				continue
			}
		}
		if tid < 0 {
			tid = en.tuple()
		}
		for int(tid) >= len(b.cls) {
			b.cls = append(b.cls, 0)
		}
		c := b.cls[tid] - 1
		if c < 0 {
			key := en.keys[int(tid)*en.width:][:en.width]
			cl := &class{g: key[0]}
			for a := 0; a < n; a++ {
				x := key[1+5*a:]
				cl.objs = append(cl.objs, x[0])
				cl.sites = append(cl.sites, x[1])
				cl.locks = append(cl.locks, x[2])
				if a > 0 {
					cl.helds = append(cl.helds, x[4])
				}
			}
			c = int32(len(b.ix.classes))
			b.cls[tid] = c + 1
			b.ix.classes = append(b.ix.classes, cl)
			b.first = append(b.first, uint64(en.rid)<<32|uint64(ord))
		}
		last := len(b.insts) - 1
		if last < 0 || len(b.insts[last])+1+n > cap(b.insts[last]) {
			b.insts = append(b.insts, make([]int32, 0, chunkLen*(1+n)))
			last++
		}
		b.insts[last] = append(append(b.insts[last], c), en.evsel...)
	}
}

// finish numbers b's classes in order of their first instance's region
// id and ordinal (the enumeration at region ends finds them in order of
// the regions' ends), and distributes the instances to their classes:
// each class's flat is a capped window of one array, its instances in the
// order found. A class's instances are all of one goroutine, whose
// regions end in the order they begin, so that order is region order.
func (b *regionBuilding) finish(n int) {
	cls := b.ix.classes
	newOf := make([]int32, len(cls)) // class as found → its number
	for c := range newOf {
		newOf[c] = int32(c)
	}
	if !slices.IsSorted(b.first) {
		order := make([]int32, len(cls))
		for c := range order {
			order[c] = int32(c)
		}
		slices.SortFunc(order, func(x, y int32) int { return cmp.Compare(b.first[x], b.first[y]) })
		sorted := make([]*class, len(cls))
		for i, c := range order {
			newOf[c] = int32(i)
			sorted[i] = cls[c]
		}
		cls = sorted
		b.ix.classes = cls
	}
	b.ix.byObj = map[int32][]int32{}
	for c, cl := range cls {
		b.ix.byObj[cl.objs[0]] = append(b.ix.byObj[cl.objs[0]], int32(c))
	}
	off := make([]int32, len(cls)+1)
	total := 0
	for _, ch := range b.insts {
		for j := 0; j < len(ch); j += 1 + n {
			off[newOf[ch[j]]+1] += int32(n)
			total += n
		}
	}
	for c := range cls {
		off[c+1] += off[c]
	}
	flat := make([]int32, total)
	for c, cl := range cls {
		cl.flat = flat[off[c]:off[c+1]:off[c+1]]
	}
	for _, ch := range b.insts {
		for j := 0; j < len(ch); j += 1 + n {
			c := newOf[ch[j]]
			copy(flat[off[c]:off[c]+int32(n)], ch[j+1:j+1+n])
			off[c] += int32(n)
		}
	}
	b.insts, b.cls, b.first = nil, nil, nil
}

// tuple returns the id of the chosen sequence's class key.
func (en *regionEnum) tuple() int32 {
	gr := en.s.gr
	key := en.key
	key[0] = en.reg.G
	h := uint32(en.reg.G) * 0x9e3779b1
	for a := 0; a < en.n; a++ {
		it := &en.items[en.choice[a]]
		x := key[1+5*a:][:5]
		x[0], x[1], x[2], x[3] = it.obj, it.site, gr.LockSet(en.evsel[a]), int32(it.op)
		x[4] = 0
		if a > 0 {
			x[4] = gr.SetOf(gr.Held(en.evsel[a-1], en.evsel[a]))
		}
		for _, v := range x {
			h = (h ^ uint32(v)) * 0x01000193
		}
	}
	h ^= h >> 15
	h *= 0x2c1b3c6d
	h ^= h >> 12
	w := en.width
	mask := uint32(len(en.table) - 1)
	slot := h & mask
	for ; en.table[slot] != 0; slot = (slot + 1) & mask {
		c := en.table[slot] - 1
		if en.hashes[c] == h && slices.Equal(en.keys[int(c)*w:][:w], key) {
			return c
		}
	}
	c := int32(len(en.hashes))
	en.keys = append(en.keys, key...)
	en.hashes = append(en.hashes, h)
	en.table[slot] = c + 1
	if 2*len(en.hashes) > len(en.table) {
		en.table = make([]int32, 2*len(en.table))
		mask = uint32(len(en.table) - 1)
		for id, h := range en.hashes {
			slot := h & mask
			for en.table[slot] != 0 {
				slot = (slot + 1) & mask
			}
			en.table[slot] = int32(id) + 1
		}
	}
	return c
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
	p := m.p
	n := p.Len()
	elem := make([][2]int, n) // position → (group, element)
	for gi, g := range m.gs {
		for e, pos := range g.pos {
			m.siteIdx[pos] = m.cls[gi].sites[e]
			elem[pos] = [2]int{gi, e}
		}
	}
	if m.s.phase != 0 && m.s.opt.Prefer(m.siteIdx) != (m.s.phase > 0) {
		return
	}
	m.s.stats.Combinations++
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
	// side[gi] holds, for each event of chosen[gi], what okWith compares
	// with (taken when it is chosen): okWith runs for every probe of the
	// binary searches below, and looked the chosen events up each time.
	side := make([][]chosenEv, len(m.gs))
	choose := func(gi int, in []int32) {
		chosen[gi] = in
		cs := side[gi][:0]
		for _, y := range in {
			cs = append(cs, chosenEv{g: gr.Ev(y).G, local: gr.Local[y], epoch: gr.Epoch[y], region: gr.Region[y], clock: gr.Clock(y)})
		}
		side[gi] = cs
	}
	// okWith reports whether instance in of group gi is compatible with the
	// groups chosen before it (order[:k]): -1 too early, +1 too late,
	// 0 fine, 2 incompatible for another reason. It is okWithSlow with
	// the chosen events' side of each comparison taken from side.
	var okWithFast func(k int, in []int32) int
	okWith := func(k int, in []int32) int {
		if !fastOkWith {
			return okWithSlow(gr, m.gs, order, chosen, k, in)
		}
		if checkOkWith != nil {
			fast := okWithFast(k, in)
			checkOkWith(fast, okWithSlow(gr, m.gs, order, chosen, k, in))
			return fast
		}
		return okWithFast(k, in)
	}
	okWithFast = func(k int, in []int32) int {
		gi := order[k]
		g := m.gs[gi]
		for e, pos := range g.pos {
			x := in[e]
			xg, xl, xr := gr.Ev(x).G, gr.Local[x], gr.Region[x]
			for _, gj := range order[:k] {
				cs := side[gj]
				for f, pos2 := range m.gs[gj].pos {
					y := &cs[f]
					if pos2 < pos {
						// y must be able to precede x: not POR(x, y).
						if xg == y.g {
							if y.local > xl {
								return -1
							}
						} else {
							// VC(y, xg): 0 without a snapshot.
							vc := uint32(0)
							if y.clock != nil {
								vc = y.clock[xg]
							}
							if vc >= gr.Epoch[x] {
								return -1
							}
						}
					} else {
						// Not POR(y, x).
						if xg == y.g {
							if y.local < xl {
								return +1
							}
						} else if gr.VC(x, y.g) >= y.epoch {
							return +1
						}
					}
					if xr >= 0 && xr == y.region && m.gs[gj].ar != g.ar {
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
			if m.p.Atomic && unobserved(gr, m.p, events) {
				// Without effect; other instances of the combination
				// may have remote regions that read the object.
				m.s.stats.Unobserved++
				m.s.tries[key]++
				return m.s.tries[key] >= m.s.opt.MaxTries
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
				choose(gi, c.inst(i))
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
				choose(gi, in)
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

// chosenEv is a chosen event with what okWith compares with.
type chosenEv struct {
	g, local, region int32
	epoch            uint32
	clock            []uint32 // gr.Clock of the event
}

// fastOkWith enables okWith's comparisons with the chosen side taken in
// advance (a variable for the test that compares it with okWithSlow).
var fastOkWith = true

// checkOkWith, if set (by a test), is called with both answers at every
// okWith call.
var checkOkWith func(fast, slow int)

// okWithSlow is okWith, comparing by POR.
func okWithSlow(gr *ptg.Graph, gs []*group, order []int, chosen [][]int32, k int, in []int32) int {
	gi := order[k]
	g := gs[gi]
	for e, pos := range g.pos {
		x := in[e]
		for _, gj := range order[:k] {
			for f, pos2 := range gs[gj].pos {
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
				if gr.Region[x] >= 0 && gr.Region[x] == gr.Region[y] && gs[gj].ar != g.ar {
					return 2
				}
			}
		}
	}
	return 0
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

// unobserved reports whether an instance of an atomicity pattern is
// equivalent to a serial run: placing the remote events (those not of the
// unit's goroutine, pattern thread 0) all before the unit's first event, or
// all after its last, reorders only pairs that commute unobserved. A pair
// commutes unobserved when its two events touch different objects, or are
// both updates of one kind whose results the program discards
// (trace.FlagUnused), and the remote event's atomic region touches that
// object only with such updates. Then the unit reads the same values, the
// final values are the same, and no goroutine observes the difference: an
// interleaving without effect (issue 14). The region condition keeps the
// violations of a check-then-act: a remote region that loads the counter
// before adding to it decided on a value the reordering changes.
func unobserved(gr *ptg.Graph, p *pattern.Pattern, events []int32) bool {
	first, last := -1, -1
	for i := range events {
		if p.T[i] == 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return false
	}
	pairOK := func(unit, remote int32) bool {
		u, r := gr.Ev(unit), gr.Ev(remote)
		if u.Obj != r.Obj {
			return true
		}
		return unusedUpdate(u, r.Flags&trace.UpdateFlags) && unusedUpdate(r, u.Flags&trace.UpdateFlags) &&
			regionUpdatesOnly(gr, remote)
	}
	// place reports whether moving every remote event before (after) the
	// unit reorders only such pairs.
	place := func(after bool) bool {
		for j := range events {
			if p.T[j] == 0 {
				continue
			}
			for i := first; i <= last; i++ {
				if p.T[i] != 0 {
					continue
				}
				if flips := (j < i) == after; flips && !pairOK(events[i], events[j]) {
					return false
				}
			}
		}
		return true
	}
	return place(false) || place(true)
}

// unusedUpdate reports whether e is an update of kind u whose result the
// program discards.
func unusedUpdate(e trace.Event, u uint8) bool {
	return e.Op == trace.AtomicRMW && u != 0 && e.Flags&trace.UpdateFlags == u && e.Flags&trace.FlagUnused != 0
}

// regionUpdatesOnly reports whether the atomic region of e (its whole
// goroutine if it has none) accesses e's object only with unused updates
// of e's kind.
func regionUpdatesOnly(gr *ptg.Graph, e int32) bool {
	ev := gr.Ev(e)
	evs := gr.G(ev.G)
	if r := gr.Region[e]; r >= 0 {
		evs = evs[gr.Local[gr.Regs[r].First] : gr.Local[gr.Regs[r].Last]+1]
	}
	for _, x := range evs {
		if xe := gr.Ev(x); xe.Op.IsAccess() && xe.Obj == ev.Obj && !unusedUpdate(xe, ev.Flags&trace.UpdateFlags) {
			return false
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
