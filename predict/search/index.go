package search

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict/ptg"
)

// group is the part of a pattern in one atomic region.
type group struct {
	ar    int
	t     int
	pos   []int // pattern positions, increasing
	sv    []int
	at    []pattern.Access
	shape string
	// shared: every element's variable is also accessed in the pattern by
	// another thread variable's event, so every instance's objects are
	// objects that two goroutines access (sharedObjs): the index of such
	// a group leaves out the other objects' accesses (buildRegionGroups).
	shared bool
}

// class is a set of group instances that agree on goroutine, objects,
// sites, ops and locksets.
//
// Its per-element fields are one slice, f: a trace of a thousand
// goroutines running the same code has a class per goroutine and sequence
// (a million on freecache's TestConcurrentGetTTL), and with a slice per
// field the GC's scan of their pointers was most of such a search's time.
type class struct {
	g    int32
	n    int32   // elements
	f    []int32 // objs, sites and locks (n each), then helds (n-1)
	flat []int32 // instances, n events each, in program order
}

// newClass returns a class of goroutine g with n elements, all fields
// zero, its f from buf if there is room (a capped window of it, so that
// appending to one cannot overwrite the next); it returns the rest of buf.
func newClass(cl *class, g int32, n int, buf []int32) []int32 {
	m := 4*n - 1
	if len(buf)+m > cap(buf) {
		buf = make([]int32, 0, max(8192, m))
	}
	cl.g, cl.n, cl.f = g, int32(n), buf[len(buf):len(buf)+m:len(buf)+m]
	return buf[:len(buf)+m]
}

// objs, sites and locks give per element its object, site and lockset
// id; helds per gap between elements the lockset held throughout (nil
// for one element).
func (c *class) objs() []int32  { n := c.n; return c.f[:n:n] }
func (c *class) sites() []int32 { n := c.n; return c.f[n : 2*n : 2*n] }
func (c *class) locks() []int32 { n := c.n; return c.f[2*n : 3*n : 3*n] }
func (c *class) helds() []int32 {
	if c.n < 2 {
		return nil
	}
	return c.f[3*c.n:]
}

// classSlab hands out classes and their fields from chunks: five
// allocations per class were, on the same trace, a third of the search's
// time in the allocator and the GC.
type classSlab struct {
	cls  []class
	ints []int32
}

// new returns a class of goroutine g with n elements, fields zero.
func (sl *classSlab) new(g int32, n int) *class {
	if len(sl.cls) == cap(sl.cls) {
		sl.cls = make([]class, 0, 1024)
	}
	sl.cls = sl.cls[:len(sl.cls)+1]
	cl := &sl.cls[len(sl.cls)-1]
	sl.ints = newClass(cl, g, n, sl.ints)
	return cl
}

func (c *class) count() int { return len(c.flat) / int(c.n) }

func (c *class) inst(i int) []int32 {
	n := int(c.n)
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
	// byG maps a goroutine to its member's index in members (member).
	byG map[int32]int32
	// runEnd[i] ends the run of members from i whose goroutines have the
	// same start-site chain (foldRun), once the chains are known.
	runEnd []int32
}

// member returns the index in members of goroutine g's class, if any.
func (sk *skeleton) member(ix *groupIndex, g int32) (int, bool) {
	if sk.byG == nil {
		sk.byG = make(map[int32]int32, len(sk.members))
		for i, ci := range sk.members {
			sk.byG[ix.classes[ci].g] = int32(i)
		}
	}
	i, ok := sk.byG[g]
	return int(i), ok
}

// skeletons builds ix's skeletons once.
func (ix *groupIndex) skeletons(gr *ptg.Graph) {
	if ix.skelByObj != nil {
		return
	}
	ix.skelByObj = map[int32][]int32{}
	// Skeletons are interned in an open-addressing table on a hash of the
	// class's fields, compared with the skeleton's first member: a map on
	// the fields as a string key held a key per skeleton, and on
	// freecache's TestConcurrentGetTTL (half a million skeletons) those
	// and the map were a sixth of the search's live heap.
	op := func(c *class, e int) trace.Op { return gr.Ev(c.flat[e]).Op }
	hash := func(c *class) uint32 {
		h := uint32(2166136261)
		mix := func(v int32) { h = (h ^ uint32(v)) * 0x01000193 }
		for _, v := range c.f {
			mix(v)
		}
		for e := range int(c.n) {
			mix(int32(op(c, e)))
		}
		h ^= h >> 15
		h *= 0x2c1b3c6d
		h ^= h >> 12
		return h
	}
	same := func(a, b *class) bool {
		if a.n != b.n || !slices.Equal(a.f, b.f) {
			return false
		}
		for e := range int(a.n) {
			if op(a, e) != op(b, e) {
				return false
			}
		}
		return true
	}
	table := make([]int32, 1<<10) // slot → 1 + skeleton, 0: empty; at most half full
	var hashes []uint32           // skeleton → its hash
	for ci, c := range ix.classes {
		h := hash(c)
		mask := uint32(len(table) - 1)
		slot := h & mask
		si := int32(-1)
		for ; table[slot] != 0; slot = (slot + 1) & mask {
			if x := table[slot] - 1; hashes[x] == h && same(ix.skels[x].proto, c) {
				si = x
				break
			}
		}
		if si < 0 {
			si = int32(len(ix.skels))
			table[slot] = si + 1
			hashes = append(hashes, h)
			ix.skels = append(ix.skels, skeleton{proto: c})
			ix.skelByObj[c.objs()[0]] = append(ix.skelByObj[c.objs()[0]], si)
			ix.allSkels = append(ix.allSkels, si)
			if 2*len(hashes) > len(table) {
				table = make([]int32, 2*len(table))
				mask = uint32(len(table) - 1)
				for x, h := range hashes {
					slot := h & mask
					for table[slot] != 0 {
						slot = (slot + 1) & mask
					}
					table[slot] = int32(x) + 1
				}
			}
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
		g.shared = true
		for k := range g.pos {
			g.shared = g.shared && sharedVar(p, &group{t: g.t, sv: g.sv[k : k+1]})
		}
		if g.shared {
			// Its index differs from an unshared group's of the same
			// elements.
			b.WriteString("*")
		}
		g.shape = b.String()
	}
	return gs
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
		obj := c.objs()[0]
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

// sharedObjs returns, once computed, which objects two goroutines access
// (by an access, a send or a close: what buildSingles indexes).
func (s *searcher) sharedObjs() []bool {
	if s.shared != nil {
		return s.shared
	}
	evs := s.gr.Tr.Events
	nobj := s.gr.NumObjects()
	keep := make([]bool, nobj)
	firstG := make([]int32, nobj) // object → 1 + the first goroutine to access it, 0: none yet
	for i := range evs {
		e := &evs[i]
		if !e.Op.IsAccess() && e.Op != trace.Send && e.Op != trace.Close {
			continue
		}
		if f := firstG[e.Obj]; f == 0 {
			firstG[e.Obj] = e.G + 1
		} else if f != e.G+1 {
			keep[e.Obj] = true
		}
	}
	s.shared = keep
	return keep
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
// object: walking each object's accesses jumps across the whole trace
// and takes most of the time of this function at 10^6 events.
func (s *searcher) buildSingles(shared bool) *groupIndex {
	gr := s.gr
	evs := gr.Tr.Events
	nobj := gr.NumObjects()
	indexed := func(op trace.Op) bool { return op.IsAccess() || op == trace.Send || op == trace.Close }
	var keep []bool // object → classed (shared only)
	if shared {
		keep = s.sharedObjs()
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
	var slab classSlab
	for c, k := range keys {
		lo, hi := next[c], next[c]+counts[c]
		cl := slab.new(k.g, 1)
		cl.f[0], cl.f[1], cl.f[2], cl.flat = k.obj, k.site, k.lock, flat[lo:hi:hi]
		ix.classes[final[c]] = cl
	}
	for j, c := range of {
		flat[next[c]] = evOf[j]
		next[c]++
	}
	for ci, c := range ix.classes {
		ix.byObj[c.objs()[0]] = append(ix.byObj[c.objs()[0]], int32(ci))
	}
	return ix
}
