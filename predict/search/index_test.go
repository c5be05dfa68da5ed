package search

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/internal/gen"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict/ptg"
)

// The class indices are built in passes over the trace in trace order,
// with caches in front of the maps (buildSingles, regionItems,
// buildRegionGroups). The reference versions below are the direct
// formulation: object by object over ptg.Graph.Accesses,
// region by region over the goroutine's row, one group at a time. The
// tests check that both give the same classes, in the same order, with the
// same instances in the same order: the search's result depends on that
// order (which instance of a site combination is tried first).

func refSingles(gr *ptg.Graph, shared bool) *groupIndex {
	ix := &groupIndex{byObj: map[int32][]int32{}}
	at := map[singleKey]int32{}
	for o := int32(0); o < int32(gr.NumObjects()); o++ {
		acc := gr.Accesses(o)
		if shared {
			two := false
			for _, e := range acc {
				two = two || gr.Ev(e).G != gr.Ev(acc[0]).G
			}
			if !two {
				continue
			}
		}
		for _, e := range acc {
			ev := gr.Ev(e)
			k := singleKey{ev.G, o, ev.Site, gr.LockSet(e), ev.Op}
			c, ok := at[k]
			if !ok {
				c = int32(len(ix.classes))
				at[k] = c
				cl := &class{}
				newClass(cl, ev.G, 1, nil)
				cl.f[0], cl.f[1], cl.f[2] = o, ev.Site, k.lock
				ix.classes = append(ix.classes, cl)
				ix.byObj[o] = append(ix.byObj[o], c)
			}
			ix.classes[c].flat = append(ix.classes[c].flat, e)
		}
	}
	return ix
}

// refItems lists each region's distinct accesses in program order.
func refItems(gr *ptg.Graph) ([]item, []int32) {
	var items []item
	start := make([]int32, len(gr.Regs)+1)
	for r, reg := range gr.Regs {
		first := len(items)
		row := gr.G(reg.G)
		for l := gr.Local[reg.First]; l <= gr.Local[reg.Last]; l++ {
			e := row[l]
			ev := gr.Ev(e)
			if !ev.Op.IsAccess() || gr.Region[e] != int32(r) {
				continue
			}
			found := false
			for i := first; i < len(items); i++ {
				if it := &items[i]; it.obj == ev.Obj && it.site == ev.Site && it.op == ev.Op && it.key == ev.Arg {
					it.last, found = e, true
					break
				}
			}
			if !found {
				items = append(items, item{ev.Obj, ev.Site, ev.Op, e, e, ev.Arg})
			}
		}
		start[r+1] = int32(len(items))
	}
	return items, start
}

// refShared reports whether two goroutines access object o.
func refShared(gr *ptg.Graph, o int32) bool {
	acc := gr.Accesses(o)
	for _, e := range acc {
		if gr.Ev(e).G != gr.Ev(acc[0]).G {
			return true
		}
	}
	return false
}

func refRegionGroup(s *searcher, items []item, itemStart []int32, g *group) *groupIndex {
	gr := s.gr
	if g.shared {
		// Only the shared objects' accesses (scanRegions' keep).
		var kept []item
		start := make([]int32, len(itemStart))
		for r := range gr.Regs {
			for _, it := range items[itemStart[r]:itemStart[r+1]] {
				if refShared(gr, it.obj) {
					kept = append(kept, it)
				}
			}
			start[r+1] = int32(len(kept))
		}
		items, itemStart = kept, start
	}
	ix := &groupIndex{byObj: map[int32][]int32{}}
	at := map[string]int32{}
	n := len(g.pos)
	var key []byte
	for r, reg := range gr.Regs {
		items := items[itemStart[r]:itemStart[r+1]]
		choice := make([]int, n)
		evsel := make([]int32, n)
		var rec func(k int, after int32)
		rec = func(k int, after int32) {
			if k == n {
				for a := 0; a < n; a++ {
					for c := a + 1; c < n; c++ {
						if (items[choice[a]].obj == items[choice[c]].obj) != (g.sv[a] == g.sv[c]) {
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
				c, ok := at[string(key)]
				if !ok {
					cl := &class{}
					newClass(cl, reg.G, n, nil)
					for a := 0; a < n; a++ {
						it := items[choice[a]]
						cl.objs()[a] = it.obj
						cl.sites()[a] = it.site
						cl.locks()[a] = gr.LockSet(evsel[a])
						if a > 0 {
							cl.helds()[a-1] = gr.SetOf(gr.Held(evsel[a-1], evsel[a]))
						}
					}
					c = int32(len(ix.classes))
					at[string(key)] = c
					ix.classes = append(ix.classes, cl)
					ix.byObj[cl.objs()[0]] = append(ix.byObj[cl.objs()[0]], c)
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
				choice[k], evsel[k] = i, e
				rec(k+1, e)
			}
		}
		rec(0, -1)
	}
	return ix
}

func sameIndex(t *testing.T, what string, got, want *groupIndex) {
	t.Helper()
	if len(got.classes) != len(want.classes) {
		t.Fatalf("%s: %d classes, want %d", what, len(got.classes), len(want.classes))
	}
	for i, w := range want.classes {
		g := got.classes[i]
		if g.g != w.g || !slices.Equal(g.objs(), w.objs()) || !slices.Equal(g.sites(), w.sites()) || !slices.Equal(g.locks(), w.locks()) ||
			!slices.Equal(g.helds(), w.helds()) || !slices.Equal(g.flat, w.flat) {
			t.Fatalf("%s: class %d is %+v, want %+v", what, i, *g, *w)
		}
	}
	if len(got.byObj) != len(want.byObj) {
		t.Fatalf("%s: byObj has %d objects, want %d", what, len(got.byObj), len(want.byObj))
	}
	for o, w := range want.byObj {
		if !slices.Equal(got.byObj[o], w) {
			t.Fatalf("%s: byObj[%d] = %v, want %v", what, o, got.byObj[o], w)
		}
	}
}

// checkIndices compares every index the search builds for pats on tr with
// the reference.
func checkIndices(t *testing.T, name string, tr *trace.Trace, pats []*pattern.Pattern) {
	t.Helper()
	gr := ptg.Build(tr)
	s := &searcher{gr: gr, shapes: map[string]*groupIndex{}}
	for _, shared := range []bool{true, false} {
		sameIndex(t, fmt.Sprintf("%s: singles (shared %v)", name, shared), s.buildSingles(shared), refSingles(gr, shared))
	}
	// The shared index taken from the index of all objects (when a
	// pattern needs both, built once).
	sameIndex(t, name+": singles (shared, from all)", sharedOf(s.buildSingles(false)), refSingles(gr, true))
	var gs []*group
	for _, p := range pats {
		for _, g := range groupsOf(p) {
			if len(g.pos) > 1 {
				gs = append(gs, g)
			}
		}
	}
	s.buildRegionGroups(gs)
	items, start := refItems(gr)
	s.regionItems(nil) // the list the enumeration falls back on
	for r := range gr.Regs {
		if got, want := s.regionItemsOf(r), items[start[r]:start[r+1]]; !slices.Equal(got, want) {
			t.Fatalf("%s: region %d has items %v, want %v", name, r, got, want)
		}
	}
	for _, g := range gs {
		sameIndex(t, name+": group "+g.shape, s.shapes[g.shape], refRegionGroup(s, items, start, g))
	}
}

// groupPatterns adds, to the built-in patterns (whose groups have two
// elements), groups of one, three and four elements, so that the shared
// enumeration runs with groups of different sizes and with middle elements.
func groupPatterns(t *testing.T) []*pattern.Pattern {
	pats := allPatterns(t)
	more, err := pattern.Parse(`
x/three atomic T=t1-t1-t2-t1 SV=s1-s2-s1-s1 AR=u1-u1-u2-u1 AT=r-w-w-r
x/four atomic T=t1-t1-t1-t2-t1 SV=s1-s1-s2-s1-s2 AR=u1-u1-u1-u2-u1 AT=w-r-w-r-w
`, "test")
	if err != nil {
		t.Fatal(err)
	}
	return append(pats, more...)
}

func TestIndicesMatchReference(t *testing.T) {
	pats := groupPatterns(t)
	// Small chunks, so that region items and group instances span many.
	defer func(n int) { chunkLen = n }(chunkLen)
	chunkLen = 3
	rng := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 300; i++ {
		tr := gen.Small(rng, gen.SmallOptions{Goroutines: 2 + i%3, MaxEvents: 14 + i%30})
		checkIndices(t, fmt.Sprintf("small %d", i), tr, pats)
	}
	for i, opt := range []gen.LargeOptions{
		{Events: 20000, Goroutines: 8, Locations: 64, Locks: 8, ChannelDensity: 0.01, Seed: 1},
		{Events: 20000, Goroutines: 3, Locations: 4, Locks: 1, ChannelDensity: 0.05, Seed: 2},
		{Events: 20000, Goroutines: 16, Locations: 200, Locks: 3, Seed: 3},
	} {
		checkIndices(t, fmt.Sprintf("large %d", i), gen.Large(opt), pats)
	}
}

// TestIndicesLargeRegion: a unit with more distinct accesses than
// regionItems finds by linear search (it switches to a map), each repeated,
// in two goroutines.
func TestIndicesLargeRegion(t *testing.T) {
	var b strings.Builder
	b.WriteString(trace.TextHeader + "\n")
	b.WriteString("main fork g1 @m.go:1\nmain fork g2 @m.go:1\n")
	for _, g := range []string{"g1", "g2"} {
		fmt.Fprintf(&b, "%s begin\n%s lock mu @a.go:1\n", g, g)
		for round := 0; round < 3; round++ {
			for v := 0; v < 40; v++ {
				op := "read"
				if (v+round)%3 == 0 {
					op = "write"
				}
				fmt.Fprintf(&b, "%s %s v%d @a.go:%d\n", g, op, v%25, 10+v)
			}
		}
		fmt.Fprintf(&b, "%s unlock mu @a.go:2\n%s end\n", g, g)
	}
	b.WriteString("main join g1 @m.go:2\nmain join g2 @m.go:2\n")
	tr, err := trace.ReadTrace(strings.NewReader(b.String()), t.Name(), trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkIndices(t, "large region", tr, groupPatterns(t))
}

// TestIndicesCapped: when an enumeration reaches MaxRegionTuples, which
// sequences are left out depends on the order the regions are enumerated
// in; buildRegionGroups then enumerates again in region order, and gets
// what the enumeration in region order alone gets.
func TestIndicesCapped(t *testing.T) {
	defer func(n int) { MaxRegionTuples = n }(MaxRegionTuples)
	pats := groupPatterns(t)
	var gs []*group
	for _, p := range pats {
		for _, g := range groupsOf(p) {
			if len(g.pos) > 1 {
				gs = append(gs, g)
			}
		}
	}
	tr := gen.Large(gen.LargeOptions{Events: 20000, Goroutines: 8, Locations: 64, Locks: 8, ChannelDensity: 0.01, Seed: 1})
	gr := ptg.Build(tr)
	for _, capAt := range []int{1, 7, 50, 400} {
		MaxRegionTuples = capAt
		s := &searcher{gr: gr, shapes: map[string]*groupIndex{}}
		s.buildRegionGroups(gs)
		if !s.stats.RegionsCapped {
			t.Fatalf("cap %d: not capped", capAt)
		}
		// The enumeration in region order alone.
		// (Shared groups from the shared objects' items.)
		shapes := map[string]*groupIndex{}
		for _, shared := range []bool{true, false} {
			ref := &searcher{gr: gr, shapes: shapes}
			var keep []bool
			if shared {
				keep = ref.sharedObjs()
			}
			ref.regionItems(keep)
			byN := map[int][]*regionBuilding{}
			for _, g := range gs {
				if _, ok := ref.shapes[g.shape]; ok || g.shared != shared {
					continue
				}
				b := &regionBuilding{g: g, ix: &groupIndex{}}
				ref.shapes[g.shape] = b.ix
				byN[len(g.pos)] = append(byN[len(g.pos)], b)
			}
			for n := 2; n <= 4; n++ {
				ref.enumerate(ref.newEnum(n, byN[n]))
				for _, b := range byN[n] {
					b.finish(n)
				}
			}
		}
		for _, g := range gs {
			sameIndex(t, fmt.Sprintf("cap %d: group %s", capAt, g.shape), s.shapes[g.shape], shapes[g.shape])
		}
	}
}
