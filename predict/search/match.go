package search

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sort"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict/ptg"
)

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

// pattern searches one pattern.
func (s *searcher) pattern(p *pattern.Pattern, reversedOnly bool) {
	s.cur = p
	gs := groupsOf(p)
	ixs := make([]*groupIndex, len(gs))
	for i, g := range gs {
		ixs[i] = s.index(p, g)
		ixs[i].skeletons(s.gr)
	}
	s.newMatcher(p, gs, ixs, reversedOnly).classes(0)
}

func (s *searcher) newMatcher(p *pattern.Pattern, gs []*group, ixs []*groupIndex, reversedOnly bool) *matcher {
	lastFree, seen := 0, map[int]bool{}
	for k, g := range gs {
		if !seen[g.t] {
			seen[g.t] = true
			lastFree = k
		}
	}
	return &matcher{lastFree: lastFree, s: s, p: p, gs: gs, ixs: ixs, reversedOnly: reversedOnly,
		cls: make([]*class, len(gs)), sk: make([]*skeleton, len(gs)), objOf: unbound(p.Vars()), gOf: unbound(p.Threads()),
		siteIdx: make([]int32, p.Len()), fit: make([]*fitSkels, len(gs))}
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
	objKeyBuf    []byte     // the objects of a group's bound elements (fitSkels)
	lastFree     int        // the last group whose thread variable no earlier group binds
	foldBuf      []byte     // foldKey of the current assignment, if its foldCode does not fit
	fold         *foldTable // the current site key's, once folded needs it
	foldCodeOK   bool       // the current assignment's foldCode fits: foldCodeVal
	foldCodeVal  uint64
	siteIdx      []int32
	// fit holds, per group once needed, its index's skeletons whose ops
	// fit the group (fitSkels).
	fit []*fitSkels
	// join0, when set, is the join (fitJoin) group 0's candidates come
	// from, and partner holds group 1's for the skeleton chosen for
	// group 0.
	join0   *fitJoin
	partner []int32
	// leaf, if set, replaces combination (tests list what classes chose).
	leaf func()
}

// fitSkels are the skeletons of a group's index that can stand for the
// group whatever the bindings made before it, in the index's order: their
// ops (and, in an acting pattern, acting reads) fit the group's access
// types, and their elements are on the same object where the group's
// variables are the same, on different ones where not. bound are the
// group's elements whose variables an earlier group binds (the first
// element of each such variable), and byBound lists the fitting
// skeletons by the objects of those elements.
//
// None of this depends on the bindings, but classes tested it for every
// skeleton at every node of its recursion: on ants's long traces (a
// thousand goroutines, a million events) the op test, a random access into
// the graph's events per skeleton, was 64% of the check's own CPU (pprof),
// and once it was gone the object tests were 50%. The lists hold the
// candidates that pass those tests, in the same order, so the search
// tries the same combinations and polls its work bound (stopped) as often.
type fitSkels struct {
	all   []int32
	bound []int
	// byBound, for up to two bound elements, keys the lists by the
	// objects packed into a uint64 (boundKey); byBoundStr, for more, by
	// their bytes. A string key cost a second cache miss per probe (the
	// key's bytes): on go-mplex's TestHalfClose (565,000 skeletons of
	// two reads of a []byte's elements in one region) the probes were a
	// third of the search's CPU.
	byBound    map[uint64][]int32
	byBoundStr map[string][]int32
	// joins caches, per later group's fitSkels and mapping of its bound
	// elements onto this group's, the semi-join of the two (join).
	joins map[joinKey]*fitJoin
	// allKey names all: the fitKey without bound, on which all does not
	// depend.
	allKey fitKey
}

// boundKey packs up to two objects into a map key.
func boundKey(o0, o1 int32) uint64 { return uint64(uint32(o0))<<32 | uint64(uint32(o1)) }

// lookup returns the fitting skeletons whose bound elements' objects are
// objs(e) for e in f.bound.
func (f *fitSkels) lookup(objs func(e int) int32, buf *[]byte) []int32 {
	switch {
	case f.byBound != nil && len(f.bound) == 1:
		return f.byBound[boundKey(objs(f.bound[0]), -1)]
	case f.byBound != nil:
		return f.byBound[boundKey(objs(f.bound[0]), objs(f.bound[1]))]
	}
	key := (*buf)[:0]
	for _, e := range f.bound {
		key = binary.LittleEndian.AppendUint32(key, uint32(objs(e)))
	}
	*buf = key
	return f.byBoundStr[string(key)]
}

// fitKey names the fitting skeletons of a group (fits).
type fitKey struct {
	ix         *groupIndex
	shape      string
	ch, acting bool
	bound      string
}

// fits returns group k's fitting skeletons, computing them once.
func (m *matcher) fits(k int) *fitSkels {
	if f := m.fit[k]; f != nil {
		return f
	}
	g, ix, gr := m.gs[k], m.ixs[k], m.s.gr
	f := &fitSkels{}
	earlier := map[int]bool{}
	for _, h := range m.gs[:k] {
		for _, v := range h.sv {
			earlier[v] = true
		}
	}
	seen := map[int]bool{}
	for e, v := range g.sv {
		if earlier[v] && !seen[v] {
			f.bound = append(f.bound, e)
		}
		seen[v] = true
	}
	// The lists depend on the index, the group's shape (its access types
	// and variable equalities), the two pattern options matches and the
	// acting test read, and bound: patterns that agree on those share
	// them. Each pattern is searched once per phase (twice with Prefer)
	// and each race pattern once per pass, so without the cache every
	// search recomputed the lists over all the index's skeletons (a fifth
	// of freecache's TestConcurrentGetTTL, half a million skeletons).
	fk := fitKey{ix: ix, shape: g.shape, ch: m.p.Chan, acting: m.p.Acting && g.t != 0, bound: fmt.Sprint(f.bound)}
	if m.s.fitCache == nil {
		m.s.fitCache = map[fitKey]*fitSkels{}
	}
	if c, ok := m.s.fitCache[fk]; ok {
		m.fit[k] = c
		return c
	}
	defer func() { m.s.fitCache[fk] = f }()
	f.allKey = fk
	f.allKey.bound = ""
next:
	for _, si := range ix.allSkels {
		c := ix.skels[si].proto
		for e := range g.pos {
			if !matches(gr.Ev(c.flat[e]).Op, g.at[e], m.p) {
				continue next
			}
			// An acting pattern's remote reads are checks that decide a
			// write (ptg.ActingLoads); a class's site and op are fixed.
			if m.p.Acting && g.t != 0 && !gr.ActingRead(c.flat[e]) {
				continue next
			}
			for e2 := range e {
				if (g.sv[e2] == g.sv[e]) != (c.objs()[e2] == c.objs()[e]) {
					continue next
				}
			}
		}
		f.all = append(f.all, si)
	}
	switch {
	case len(f.bound) == 1 || len(f.bound) == 2:
		f.byBound = make(map[uint64][]int32, len(f.all)) // mostly a key per skeleton: no growth
		for _, si := range f.all {
			objs := ix.skels[si].proto.objs()
			k := boundKey(objs[f.bound[0]], -1)
			if len(f.bound) == 2 {
				k = boundKey(objs[f.bound[0]], objs[f.bound[1]])
			}
			f.byBound[k] = append(f.byBound[k], si)
		}
	case len(f.bound) > 2:
		f.byBoundStr = map[string][]int32{}
		var key []byte
		for _, si := range f.all {
			c := ix.skels[si].proto
			key = key[:0]
			for _, e := range f.bound {
				key = binary.LittleEndian.AppendUint32(key, uint32(c.objs()[e]))
			}
			f.byBoundStr[string(key)] = append(f.byBoundStr[string(key)], si)
		}
	}
	m.fit[k] = f
	return f
}

// joinKey names a semi-join of group 0's fitting skeletons with group
// 1's: group 1's fitSkels and, per element of its bound, the element of
// group 0 that binds that element's variable.
type joinKey struct {
	next *fitSkels
	from string
}

// fitJoin is the semi-join of group 0's fitting skeletons with group 1's:
// those of group 0 (in order) for which group 1's lookup, with the
// objects they bind, is not empty, and that lookup's result (partner).
type fitJoin struct {
	sk       []int32
	partner  [][]int32
	converse bool // made by converse
}

// join returns, when group 1's candidates depend only on group 0's
// skeleton (group 1 has bound elements, all bound by group 0), the
// semi-join of the two groups' fitting skeletons, and sets m.join0; nil
// otherwise, or if the search stopped while it was computed.
//
// Without it, classes went through every skeleton of group 0 to look up
// group 1's for each: on go-mplex's TestHalfClose, 210,000 pairs of
// writes to a []byte's elements in one region against 565,000 pairs of
// reads, for every asv pattern of two two-element groups (asv-6 to 14),
// where asv-7, 8, 10, 12, 13 and 14 found no pair at all. The join keeps
// the same skeletons in the same order (classes chooses the same
// tuples), and patterns that agree on the two lists and the mapping
// (asv-7 and 8, 10 and 14, 12 and 13) share it. Each probe of a join
// computed is a step of the search (stopped), as each call of classes
// for group 1 was; a shared join takes none, a converse one per 256 of
// its entries: the work bound counts the probes made, not those saved.
func (m *matcher) join() *fitJoin {
	m.join0 = nil
	if len(m.gs) < 2 {
		return nil
	}
	f0 := m.fits(0)
	if len(f0.all) == 0 {
		return nil
	}
	f1 := m.fits(1)
	if len(f1.bound) == 0 {
		return nil
	}
	g0, g1 := m.gs[0], m.gs[1]
	from := make([]int, len(g1.sv)) // group 1's element → group 0's that binds its variable
	for _, e := range f1.bound {
		from[e] = slices.Index(g0.sv, g1.sv[e])
	}
	jk := joinKey{next: f1, from: fmt.Sprint(from)}
	if j, ok := f0.joins[jk]; ok {
		m.join0 = j
		return j
	}
	// A join of two groups whose variables are the same (a bijection of
	// their elements) is the converse of the join of the two the other
	// way round: asv-11, 12 and 13 (reads, then writes) take it from
	// asv-9 and 10's (writes, then reads), whose group 0 has the fewer
	// skeletons on go-mplex's TestHalfClose (210,000 against 565,000).
	var bij *bijKey
	if len(f1.bound) == len(g1.sv) && len(g0.sv) == len(g1.sv) && distinct(g0.sv) {
		inv := make([]int, len(from))
		for e, e0 := range from {
			inv[e0] = e
		}
		bij = &bijKey{f0.allKey, f1.allKey, jk.from}
		if j2, ok := m.s.bijoins[bijKey{f1.allKey, f0.allKey, fmt.Sprint(inv)}]; ok {
			j := m.converse(j2)
			if j == nil {
				return nil
			}
			m.s.bijoins[*bij] = j
			return m.keepJoin(f0, jk, j)
		}
	}
	ix := m.ixs[0]
	j := &fitJoin{}
	var buf []byte
	for _, si := range f0.all {
		if m.s.stopped() {
			return nil
		}
		objs := ix.skels[si].proto.objs()
		// fits' equalities within group 0 make the objects its
		// variables bind those of their first elements.
		if p := f1.lookup(func(e int) int32 { return objs[from[e]] }, &buf); len(p) > 0 {
			j.sk = append(j.sk, si)
			j.partner = append(j.partner, p)
		}
	}
	if bij != nil {
		if m.s.bijoins == nil {
			m.s.bijoins = map[bijKey]*fitJoin{}
		}
		m.s.bijoins[*bij] = j
	}
	return m.keepJoin(f0, jk, j)
}

// keepJoin caches j as f0's join jk and returns it, setting m.join0.
func (m *matcher) keepJoin(f0 *fitSkels, jk joinKey, j *fitJoin) *fitJoin {
	if f0.joins == nil {
		f0.joins = map[joinKey]*fitJoin{}
	}
	f0.joins[jk] = j
	m.join0 = j
	return j
}

// bijKey names a join of two groups whose elements' variables are in
// bijection: the two lists (fitSkels.allKey) and the mapping.
type bijKey struct {
	all0, all1 fitKey
	from       string
}

// converse returns the join whose relation is j2's converse: j2 joined
// group 1's list (as its group 0) with group 0's (as its group 1). Every
// list is in increasing skeleton order (fits keeps the index's order, the
// joins and lookups that of their lists), so counting then filling gives
// the lists a lookup would. Nil if the search stopped meanwhile.
func (m *matcher) converse(j2 *fitJoin) *fitJoin {
	count := make([]int32, len(m.ixs[0].skels)+1)
	total := 0
	for bi, ps := range j2.partner {
		if bi&255 == 0 && m.s.stopped() {
			return nil
		}
		for _, a := range ps {
			count[a+1]++
		}
		total += len(ps)
	}
	j := &fitJoin{converse: true}
	for a := range len(count) - 1 {
		if count[a+1] > 0 {
			j.sk = append(j.sk, int32(a))
		}
		count[a+1] += count[a] // count[a]: where a's partners start
	}
	flat := make([]int32, total)
	next := count[:len(count)-1]
	for bi, b := range j2.sk {
		for _, a := range j2.partner[bi] {
			flat[next[a]] = b
			next[a]++
		}
	}
	// next[a] is now where a's partners end.
	j.partner = make([][]int32, len(j.sk))
	for i, a := range j.sk {
		lo := int32(0)
		if a > 0 {
			lo = next[a-1]
		}
		j.partner[i] = flat[lo:next[a]:next[a]]
	}
	return j
}

// distinct reports whether vs has no variable twice.
func distinct(vs []int) bool {
	for i, v := range vs {
		if slices.Contains(vs[:i], v) {
			return false
		}
	}
	return true
}

// classes chooses a skeleton for group k and recurses; goroutines are
// assigned per site combination, in assign.
func (m *matcher) classes(k int) {
	if m.s.stopped() {
		return
	}
	if k == len(m.gs) {
		if m.leaf != nil {
			m.leaf()
			return
		}
		m.combination()
		return
	}
	g := m.gs[k]
	ix := m.ixs[k]
	// Only the skeletons whose ops fit the group's access types (singles
	// are shared by all).
	fit := m.fits(k)
	cand := fit.all
	var j *fitJoin
	switch {
	case k == 1 && m.join0 != nil:
		// Group 0's join found them.
		cand = m.partner
	case len(fit.bound) > 0:
		// Only those on the objects bound to the variables of earlier
		// groups.
		cand = fit.lookup(func(e int) int32 { return m.objOf[g.sv[e]] }, &m.objKeyBuf)
	case k == 0:
		if j = m.join(); j != nil {
			cand = j.sk
		} else if m.s.stats.Cut {
			return
		}
	}
	var newSV [8]int
	for i, si := range cand {
		sk := &ix.skels[si]
		c := sk.proto
		// Object bindings.
		nNew := 0
		ok := true
		for e, v := range g.sv {
			if o := m.objOf[v]; o >= 0 {
				if o != c.objs()[e] {
					ok = false
					break
				}
				continue
			}
			for _, o2 := range m.objOf {
				if o2 == c.objs()[e] {
					ok = false
					break
				}
			}
			if !ok {
				break
			}
			m.objOf[v] = c.objs()[e]
			if nNew < len(newSV) {
				newSV[nNew] = v
				nNew++
			}
		}
		if ok {
			m.sk[k] = sk
			m.cls[k] = c
			if j != nil {
				m.partner = j.partner[i]
			}
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
		if m.folded(key) {
			// Not counted against MaxAssign: the representative's
			// instances stand for it.
			return false
		}
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
	sk := m.sk[k]
	boundT := m.gOf[g.t]
	if boundT >= 0 {
		// A skeleton has one class per goroutine: the bound one's, if
		// any (looked up, not searched for among a thousand).
		i, ok := sk.member(ix, boundT)
		if !ok {
			return false
		}
		m.cls[k] = ix.classes[sk.members[i]]
		return m.assign(k+1, key, elem)
	}
	last := k == m.lastFree
next:
	for i := 0; i < len(sk.members); i++ {
		c := ix.classes[sk.members[i]]
		for _, gg := range m.gOf {
			if gg == c.g {
				continue next
			}
		}
		m.gOf[g.t] = c.g
		if last {
			if end, cut := m.foldRun(key, k, i); end >= 0 {
				m.gOf[g.t] = boundT
				if cut {
					return true
				}
				i = end - 1
				continue
			}
		}
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
			m.siteIdx[pos] = m.cls[gi].sites()[e]
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
	m.fold = nil // a new site key
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
				return m.cls[gi].helds()[e], true
			}
		}
		return 0, false
	}
	for pos := 0; pos < n; pos++ {
		gi, e := elem[pos][0], elem[pos][1]
		l := m.cls[gi].locks()[e]
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
			if m.gs[gk].t != m.gs[gi].t && gr.Conflict(l, m.cls[gk].locks()[ek]) {
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
					if lo < hi && gr.Conflict(m.cls[gi].helds()[a], m.cls[gj].helds()[b]) {
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
							if y.clock.At(xg) >= gr.Epoch[x] {
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
			if m.p.Atomic && keysApart(gr, m.p, events) {
				// Not one location (apart skips these as it chooses;
				// this is the whole instance's rule, kept for safety).
				m.s.stats.KeysApart++
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
			m.represent()
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
		// apart: in binds a variable to a key of a map that this group's
		// other events or the groups chosen before it bind to another
		// (keysApart). Such an instance is skipped before it counts
		// against PerClass: the partners nearest the anchor may all be
		// on other keys, and one further away on the same key.
		apart := func(in []int32) bool {
			if !m.p.Atomic {
				return false
			}
			g := m.gs[gi]
			for e, pos := range g.pos {
				x := gr.Ev(in[e])
				if x.Arg == 0 || !x.Op.HasKey() {
					continue
				}
				for f := range e {
					if m.p.SV[g.pos[f]] == m.p.SV[pos] && trace.KeysApart(x, gr.Ev(in[f])) {
						return true
					}
				}
				for _, gj := range order[:k] {
					for f, pos2 := range m.gs[gj].pos {
						if m.p.SV[pos2] == m.p.SV[pos] && trace.KeysApart(x, gr.Ev(chosen[gj][f])) {
							return true
						}
					}
				}
			}
			return false
		}
		if k == 0 {
			for i := 0; i < cnt; i++ {
				if m.s.stopped() {
					return true
				}
				if apart(c.inst(i)) {
					m.s.stats.KeysApart++
					continue
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
				if apart(in) {
					m.s.stats.KeysApart++
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
	clock            ptg.Clock // gr.Clock of the event
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
