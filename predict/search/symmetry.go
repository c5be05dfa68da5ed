package search

import (
	"encoding/binary"
	"slices"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/predict/ptg"
)

// Symmetry. Goroutines started at the same fork site by parents that were
// themselves started at the same sites (the same start-site chain) run
// the same closure: a test that starts a thousand workers in a loop gives
// every site combination a thousand times over, once per pair of
// workers. The race detector reports one race per pair of sites; the
// search proposes, per site combination and tuple of start-site chains
// (one per goroutine of the pattern), the instances of one goroutine
// assignment only — the first that gives a candidate, its representative
// — and folds the other assignments onto it (Stats.Folded). The
// representative keeps all of its tries (MaxTries): its instances differ
// in where in the goroutines' runs they fall, not in which copy runs.

// startChains returns, per goroutine of gr, an id of its start-site
// chain: equal for two goroutines exactly when both were forked at the
// same site by parents with equal chains. A root (no recorded fork: the
// test's goroutine, or one started by uninstrumented code) has an id of
// its own, as nothing says what it runs.
func startChains(gr *ptg.Graph) []int32 {
	ng := gr.NG
	parent := make([]int32, ng)
	site := make([]int32, ng)
	for g := range parent {
		parent[g] = -1
	}
	for _, e := range gr.Tr.Events {
		if e.Op == trace.Fork && e.Obj >= 0 && int(e.Obj) < ng && parent[e.Obj] < 0 && e.Obj != e.G {
			parent[e.Obj], site[e.Obj] = e.G, e.Site
		}
	}
	ids := make([]int32, ng)
	for g := range ids {
		ids[g] = -1
	}
	type link struct{ parent, site int32 }
	interned := map[link]int32{}
	next := int32(ng) // roots take their own index; chains the ids above
	var id func(g int32, depth int) int32
	id = func(g int32, depth int) int32 {
		if ids[g] >= 0 {
			return ids[g]
		}
		if parent[g] < 0 || depth > ng {
			ids[g] = g
			return g
		}
		l := link{id(parent[g], depth+1), site[g]}
		v, ok := interned[l]
		if !ok {
			v = next
			next++
			interned[l] = v
		}
		ids[g] = v
		return v
	}
	for g := range ids {
		id(int32(g), 0)
	}
	return ids
}

// foldKey appends to b the site key and the start-site chain of each
// thread variable's goroutine, in variable order.
func (m *matcher) foldKey(b []byte, key string) []byte {
	b = append(b, key...)
	for _, g := range m.gOf {
		c := int32(-1)
		if g >= 0 {
			c = m.s.chains[g]
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(c))
	}
	return b
}

// folded reports whether the current goroutine assignment (m.gOf) is
// folded onto another representative of its combination of sites and
// start-site chains, and counts it if so.
func (m *matcher) folded(key string) bool {
	s := m.s
	if s.chains == nil {
		s.chains = startChains(s.gr)
	}
	m.foldBuf = m.foldKey(m.foldBuf[:0], key)
	rep, ok := s.reps[string(m.foldBuf)]
	if !ok || slices.Equal(rep, m.gOf) {
		return false
	}
	s.stats.Folded++
	return true
}

// represent makes the current goroutine assignment its combination's
// representative, if it has none: it is proposing a candidate.
func (m *matcher) represent() {
	if _, ok := m.s.reps[string(m.foldBuf)]; !ok {
		m.s.reps[string(m.foldBuf)] = slices.Clone(m.gOf)
	}
}
