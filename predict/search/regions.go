package search

import (
	"cmp"
	"math/bits"
	"slices"
	"sort"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict/ptg"
)

// item is a distinct (object, site, op) access within one region, with its
// first and last occurrence.
type item struct {
	obj, site   int32
	op          trace.Op
	first, last int32
	// key is the map key's hash of a map element's access (trace.HasKey;
	// 0 for the whole map or any other access): a region that deletes
	// key 1 and then key 2 at one site has two items, or a group's
	// instance would only ever take one key's event, and one on the key
	// another goroutine writes would never be tried (keysApart).
	key int64
}

// regionItems lists, once, the distinct accesses of every region, in
// order of first occurrence (regions are thus listed in the order they
// end). buildRegionGroups needs the list only when the enumeration at
// region ends gives up (enumerateAtEnds).
//
// With keep, the items are only those of the objects it keeps.
func (s *searcher) regionItems(keep []bool) {
	rng := make([]int32, 3*len(s.gr.Regs))
	// Items are appended to fixed chunks, not to one growing slice:
	// at 10^7 events the growing slice's copies (into fresh memory) were
	// most of this function's time.
	var chunks [][]item
	items := make([]item, 0, chunkLen)
	s.scanRegions(keep, func(r int32, b []item) bool {
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
// of its own. Walking each region through its goroutine's row would take
// a quarter of the search's own time at 10^6 events.
//
// With keep, a region's items are only the accesses of the objects keep
// marks (sharedObjs): a test that fills a cache from one goroutine has
// regions of hundreds of accesses to objects no other goroutine touches,
// whose sequences no pattern of shared variables can use; enumerating
// them took most of such a trace's search (gcache's Loading*Get, cache2go's
// TestCount: seconds each).
func (s *searcher) scanRegions(keep []bool, f func(r int32, items []item) bool) {
	gr := s.gr
	evs := gr.Tr.Events
	buf := make([][]item, gr.NG) // goroutine → the items of its open region
	// Regions with more than linear distinct items look them up in a map.
	const linear = 16
	type bigKey struct {
		r, obj, site int32
		op           trace.Op
		key          int64
	}
	var big map[bigKey]int32 // → index in the goroutine's buffer
	for e, r := range gr.Region {
		if r < 0 {
			continue
		}
		ev := &evs[e]
		g := ev.G
		if ev.Op.IsAccess() && (keep == nil || keep[ev.Obj]) {
			b := buf[g]
			found := -1
			if len(b) <= linear {
				for i := range b {
					if it := &b[i]; it.obj == ev.Obj && it.site == ev.Site && it.op == ev.Op && it.key == ev.Arg {
						found = i
						break
					}
				}
			} else if i, ok := big[bigKey{r, ev.Obj, ev.Site, ev.Op, ev.Arg}]; ok {
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
						big[bigKey{r, it.obj, it.site, it.op, it.key}] = int32(i)
					}
				}
				if len(b) >= linear {
					big[bigKey{r, ev.Obj, ev.Site, ev.Op, ev.Arg}] = int32(len(b))
				}
				buf[g] = append(b, item{ev.Obj, ev.Site, ev.Op, int32(e), int32(e), ev.Arg})
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
// would take a third of the index's time at 10^6 events. Only the tuple
// cap depends on the order regions are enumerated in: an enumeration that
// reaches it is done again in region order.
//
// The groups of shared variables (group.shared) are indexed from the
// accesses of shared objects only, the others from all accesses: two
// passes when both are asked for.
func (s *searcher) buildRegionGroups(gs []*group) {
	var shared, other []*group
	for _, g := range gs {
		if g.shared && indexSharedOnly {
			shared = append(shared, g)
		} else {
			other = append(other, g)
		}
	}
	if len(shared) > 0 {
		s.buildRegionGroupsOf(shared, s.sharedObjs())
	}
	if len(other) > 0 {
		s.buildRegionGroupsOf(other, nil)
	}
}

// indexSharedOnly: shared groups are indexed from the shared objects'
// accesses (a variable for the test that compares the search's candidates
// with and without).
var indexSharedOnly = true

// buildRegionGroupsOf builds the index of gs from the accesses of the
// objects keep marks (nil: all).
func (s *searcher) buildRegionGroupsOf(gs []*group, keep []bool) {
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
	if !s.enumerateAtEnds(enums(), keep) {
		for _, b := range all {
			b.cls, b.insts, b.first, b.ix.classes, b.slab = nil, nil, nil, nil, classSlab{}
		}
		if s.itemRange == nil || s.itemShared != (keep != nil) {
			s.regionItems(keep)
			s.itemShared = keep != nil
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
func (s *searcher) enumerateAtEnds(ens []*regionEnum, keep []bool) bool {
	gr := s.gr
	ok := true
	s.scanRegions(keep, func(r int32, items []item) bool {
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
	// to each class as found takes a fifth of the enumeration's time, and
	// one growing slice's copies as much at 10^7 events.
	insts [][]int32
	slab  classSlab
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
	keys   [][]int32 // tuple id → key, width each, keyChunk tuples a chunk (keyOf)
	hashes []uint32  // tuple id → hash of its key
	table  []int32   // slot → 1 + tuple id, 0: empty; at most half full
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
	if len(en.hashes) >= MaxRegionTuples {
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
			key := en.keyOf(tid)
			cl := b.slab.new(key[0], n)
			for a := 0; a < n; a++ {
				x := key[1+5*a:]
				cl.f[a], cl.f[n+a], cl.f[2*n+a] = x[0], x[1], x[2]
				if a > 0 {
					cl.f[3*n+a-1] = x[4]
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
		b.ix.byObj[cl.objs()[0]] = append(b.ix.byObj[cl.objs()[0]], int32(c))
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

// keyChunk is the number of tuple keys per chunk of regionEnum.keys:
// appended to one slice, the keys' copies as it grew (to tens of
// megabytes at the tuple cap) were a tenth of an index's time.
const keyChunk = 1 << 12

// keyOf returns tuple c's key.
func (en *regionEnum) keyOf(c int32) []int32 {
	w := en.width
	return en.keys[c/keyChunk][int(c%keyChunk)*w:][:w]
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
		if en.hashes[c] == h && slices.Equal(en.keyOf(c), key) {
			return c
		}
	}
	c := int32(len(en.hashes))
	if c%keyChunk == 0 {
		en.keys = append(en.keys, make([]int32, 0, keyChunk*w))
	}
	last := len(en.keys) - 1
	en.keys[last] = append(en.keys[last], key...)
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
		if ev.Obj == it.obj && ev.Site == it.site && ev.Op == it.op && ev.Arg == it.key && ev.Op.IsAccess() {
			return e
		}
	}
	return -1
}
