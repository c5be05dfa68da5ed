package search

import (
	"encoding/binary"
	"math/bits"
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

// foldTable holds the representatives of one site key, by the tuple of
// start-site chains of their goroutines packed into an integer (foldCode).
// The check runs once per goroutine assignment, tens of millions of times
// on a test that starts a thousand workers (gcache's
// TestLoaderPurgeVisitorFunc: 42 million, 45% of its search's CPU when
// each built and hashed a string of the site key and the chains): the
// table is found once per site combination, and a tuple is looked up in a
// slice when the codes are few, in a map of integers otherwise.
type foldTable struct {
	dense  []int32          // code → representative + 1 (0: none), if the codes are few
	sparse map[uint64]int32 // code → representative, otherwise
	reps   [][]int32        // representatives' goroutine assignments
}

// maxDense bounds the slice of a foldTable, in codes.
const maxDense = 1 << 12

// foldChains computes, once, each goroutine's start-site chain numbered
// densely from 1 (code 0 is an unbound thread variable), and the bits a
// thread variable's chain takes in a code.
func (s *searcher) foldChains() {
	if s.chains != nil {
		return
	}
	chains := startChains(s.gr)
	dense := map[int32]int32{}
	s.chains = make([]int32, len(chains))
	for g, c := range chains {
		d, ok := dense[c]
		if !ok {
			d = int32(len(dense)) + 1
			dense[c] = d
		}
		s.chains[g] = d
	}
	s.chainBits = bits.Len(uint(len(dense)))
}

// foldCode packs the chains of the thread variables' goroutines (m.gOf)
// into one integer, one field of chainBits bits per variable; ok is false
// if they do not fit in 64 bits (then the string key is used).
func (m *matcher) foldCode() (code uint64, ok bool) {
	b := m.s.chainBits
	if b*len(m.gOf) > 64 {
		return 0, false
	}
	for _, g := range m.gOf {
		code <<= b
		if g >= 0 {
			code |= uint64(m.s.chains[g])
		}
	}
	return code, true
}

// table returns key's foldTable, making it if needed.
func (s *searcher) table(key string, threads int) *foldTable {
	t := s.reps[key]
	if t == nil {
		t = &foldTable{}
		if n := s.chainBits * threads; n <= 64 && 1<<n <= maxDense {
			t.dense = make([]int32, 1<<n)
		} else {
			t.sparse = map[uint64]int32{}
		}
		s.reps[key] = t
	}
	return t
}

// rep returns the representative of code in t, or -1.
func (t *foldTable) rep(code uint64) int32 {
	if t.dense != nil {
		return t.dense[code] - 1
	}
	if r, ok := t.sparse[code]; ok {
		return r
	}
	return -1
}

// foldKey appends to b the site key and the start-site chain of each
// thread variable's goroutine, in variable order: the key of
// s.repsByString, for assignments whose codes do not fit in 64 bits.
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
// start-site chains, and counts it if so. It leaves in m what represent
// needs to make the assignment the representative.
func (m *matcher) folded(key string) bool {
	s := m.s
	s.foldChains()
	var rep []int32
	code, ok := m.foldCode()
	m.foldCodeOK, m.foldCodeVal = ok, code
	if ok {
		if m.fold == nil {
			m.fold = s.table(key, len(m.gOf))
		}
		r := m.fold.rep(code)
		if r < 0 {
			return false
		}
		rep = m.fold.reps[r]
	} else {
		m.foldBuf = m.foldKey(m.foldBuf[:0], key)
		if rep, ok = s.repsByString[string(m.foldBuf)]; !ok {
			return false
		}
	}
	if slices.Equal(rep, m.gOf) {
		return false
	}
	s.stats.Folded++
	return true
}

// represent makes the current goroutine assignment its combination's
// representative, if it has none: it is proposing a candidate.
func (m *matcher) represent() {
	s := m.s
	if !m.foldCodeOK {
		if _, ok := s.repsByString[string(m.foldBuf)]; !ok {
			s.repsByString[string(m.foldBuf)] = slices.Clone(m.gOf)
		}
		return
	}
	t := m.fold
	if t.rep(m.foldCodeVal) >= 0 {
		return
	}
	r := int32(len(t.reps))
	t.reps = append(t.reps, slices.Clone(m.gOf))
	if t.dense != nil {
		t.dense[m.foldCodeVal] = r + 1
	} else {
		t.sparse[m.foldCodeVal] = r
	}
}

// foldRun is folded for the members of a skeleton at the matcher's last
// free group k (lastFree: its thread variable is the last to be bound, so
// the assignment is complete once member i's goroutine is, m.gOf). If the
// representative of that assignment's chains differs from it in another
// variable, every member of i's run (members whose goroutines have the
// same chain: the same code) is folded, and foldRun accounts for them as
// trying each would have, and returns the run's end, and whether the
// search was cut; otherwise end is -1 and the members are tried one by
// one. With a thousand workers started in one loop, a two-goroutine
// pattern's assignments were enumerated a million times per site key,
// all but one folded (gcache's TestLoaderPurgeVisitorFunc: 42 million).
//
// The skipped assignments still count as the search's steps, polling the
// work bound where trying them would have (skipSteps): the search stops
// where it stopped, so the same trace gives the same candidates. Reaching
// further changes what is reported (in that test, asv-10 instances past
// its bound that the checks do not rule out), which is not this change's
// business; it makes the bound's units cheap.
func (m *matcher) foldRun(key string, k, i int) (end int, cut bool) {
	s := m.s
	if !foldRuns {
		return -1, false
	}
	s.foldChains()
	code, ok := m.foldCode()
	if !ok {
		return -1, false
	}
	if m.fold == nil {
		m.fold = s.table(key, len(m.gOf))
	}
	r := m.fold.rep(code)
	if r < 0 {
		return -1, false
	}
	t := m.gs[k].t
	differs := false
	for v, g := range m.fold.reps[r] {
		if v != t && g != m.gOf[v] {
			differs = true
			break
		}
	}
	if !differs {
		return -1, false
	}
	ix, sk := m.ixs[k], m.sk[k]
	end = int(sk.runs(ix, s.chains)[i])
	if k == len(m.gs)-1 {
		// Each member not bound to another variable is a leaf: one step.
		n := end - i
		for v, g := range m.gOf {
			if j, ok := sk.member(ix, g); v != t && ok && j >= i && j < end {
				n-- // not an assignment: a goroutine taken twice
			}
		}
		s.stats.Folded += n
		return end, s.skipSteps(uint64(n))
	}
next:
	for j := i; j < end; j++ {
		cg := ix.classes[sk.members[j]].g
		for v, g := range m.gOf {
			if v != t && g == cg {
				continue next
			}
		}
		// The later groups' threads are all bound: each level is one
		// step, and goes on if its skeleton has the bound goroutine.
		steps, leaf := uint64(0), true
		for l := k + 1; l < len(m.gs); l++ {
			steps++
			b := m.gOf[m.gs[l].t]
			if m.gs[l].t == t {
				b = cg
			}
			if _, ok := m.sk[l].member(m.ixs[l], b); !ok {
				leaf = false
				break
			}
		}
		if leaf {
			steps++
			s.stats.Folded++
		}
		if s.skipSteps(steps) {
			return end, true
		}
	}
	return end, false
}

// skipSteps counts n steps of the search not taken, polling Stop where
// stopped would have; it reports whether the search is cut.
func (s *searcher) skipSteps(n uint64) bool {
	for !s.stats.Cut {
		// stopped polls when it finds steps at a multiple of 4096.
		before := (4096 - s.steps&4095) & 4095
		if n <= before {
			s.steps += n
			return false
		}
		s.steps += before
		s.stopped()
		n -= before + 1
	}
	return true
}

// foldRuns: foldRun skips runs (false: for the test that compares).
var foldRuns = true

// runs returns runEnd, computing it once.
func (sk *skeleton) runs(ix *groupIndex, chains []int32) []int32 {
	if sk.runEnd == nil {
		n := len(sk.members)
		sk.runEnd = make([]int32, n)
		for i := n - 1; i >= 0; i-- {
			sk.runEnd[i] = int32(i + 1)
			if i+1 < n && chains[ix.classes[sk.members[i]].g] == chains[ix.classes[sk.members[i+1]].g] {
				sk.runEnd[i] = sk.runEnd[i+1]
			}
		}
	}
	return sk.runEnd
}
