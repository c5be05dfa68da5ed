package candidates

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/pecanvet/pecanvet/passes/symbolic"
	"github.com/pecanvet/pecanvet/pattern"
	"golang.org/x/tools/go/ssa"
)

// seq is one context's accesses, indexed by location.
type seq struct {
	ctx   Context
	evs   []*symbolic.Event // memory accesses only, in sequence order
	byLoc map[string][]int32
	locs  []string // sorted
	whole bool     // the whole context is one unit of work (a method call)

	tupleCache map[string][][]*symbolic.Event // see tuples
}

// newSeq builds a context from a sequence, keeping the accesses for which
// keep (if not nil) returns true.
func newSeq(ctx Context, evs []symbolic.Event, whole bool, keep func(*symbolic.Event) bool) *seq {
	s := &seq{ctx: ctx, byLoc: map[string][]int32{}, whole: whole}
	for i := range evs {
		e := &evs[i]
		if !e.Op.IsAccess() || !e.Pos.IsValid() || keep != nil && !keep(e) {
			continue
		}
		if _, ok := s.byLoc[e.Loc]; !ok {
			s.locs = append(s.locs, e.Loc)
		}
		s.byLoc[e.Loc] = append(s.byLoc[e.Loc], int32(len(s.evs)))
		s.evs = append(s.evs, e)
	}
	slices.Sort(s.locs)
	return s
}

// matcher matches patterns between pairs of contexts.
type matcher struct {
	sym          *symbolic.Result
	pats         []*pattern.Pattern
	out          Result
	keys         map[string]bool
	sites        map[token.Pos]string
	bodies       map[ssa.Instruction]*seq
	pairsDone    map[[2]ssa.Instruction]bool
	methods      map[*ssa.Function]*seq
	methodsOf    map[*types.Named][]*ssa.Function
	intendedMemo map[*types.Named]bool

	pairCount int // candidates of the current pair
}

// pair matches every pattern between contexts a and b (a == b: a context
// paired with itself), with a running the pattern's first thread and then
// the other way round.
func (m *matcher) pair(a, b *seq) {
	if a == nil || b == nil || len(a.evs) == 0 || len(b.evs) == 0 {
		return
	}
	m.pairCount = 0
	for _, p := range m.pats {
		m.match(p, a, b)
		if a != b {
			m.match(p, b, a)
		}
		if m.pairCount >= MaxPerPair || len(m.out) >= MaxPerPackage {
			return
		}
	}
}

// access reports whether e matches access type at of pattern p. A race
// may pair an atomic access with a plain one (matchLocs drops the pairs
// that are atomic on both sides): the atomic says the word is shared, and
// the plain access beside it is a data race by Go's memory model, which
// Go's race detector reports (simonfxr/pubsub's Subscription.flags, read
// plainly by fl() and stored by atomic.StoreUintptr).
func access(e *symbolic.Event, at pattern.Access, p *pattern.Pattern) bool {
	if e.Op.IsAtomic() && !p.Atomic && !p.Adjacent {
		return false
	}
	if at == pattern.R {
		return e.Op.Reads()
	}
	return e.Op.Writes()
}

// match finds the instances of p with thread 0 in x and thread 1 in y.
func (m *matcher) match(p *pattern.Pattern, x, y *seq) {
	n := p.Len()
	ctxOf := func(i int) *seq {
		if p.T[i] == 0 {
			return x
		}
		return y
	}
	var groups [2][]int
	for i := range n {
		groups[p.T[i]] = append(groups[p.T[i]], i)
	}
	// Candidate locations per shared variable: accessed as required by
	// every event on it.
	nv := p.Vars()
	cands := make([][]string, nv)
	for v := range nv {
		first := -1
		for i := range n {
			if p.SV[i] == v {
				first = i
				break
			}
		}
	locs:
		for _, loc := range ctxOf(first).locs {
			for i := range n {
				if p.SV[i] == v && !hasAccess(ctxOf(i), loc, p.AT[i], p) {
					continue locs
				}
			}
			cands[v] = append(cands[v], loc)
		}
		if len(cands[v]) == 0 {
			return
		}
	}
	assign := make([]string, nv)
	var rec func(v int)
	rec = func(v int) {
		if m.pairCount >= MaxPerPair || len(m.out) >= MaxPerPackage {
			return
		}
		if v == nv {
			locs := make([]string, n)
			for i := range n {
				locs[i] = assign[p.SV[i]]
			}
			m.matchLocs(p, x, y, groups, locs)
			return
		}
		for _, loc := range cands[v] {
			if slices.Contains(assign[:v], loc) || v > 0 && !siblings(assign[0], loc) {
				continue
			}
			assign[v] = loc
			rec(v + 1)
		}
	}
	rec(0)
}

// siblings reports whether two locations may form an atomic set: fields
// of the same struct type ("p.T.a", "p.T.b"), variables of the same
// package, or captured variables of the same function. Elements, map
// contents and pointer targets (named by type) pair with nothing: that
// would pair every field with every slice of the program.
func siblings(a, b string) bool {
	oa, ob := owner(a), owner(b)
	return oa != "" && oa == ob
}

func owner(loc string) string {
	if strings.HasPrefix(loc, "*") || strings.ContainsAny(loc, " []") {
		return ""
	}
	i := strings.LastIndexByte(loc, '.')
	if i <= 0 {
		return ""
	}
	return loc[:i]
}

func hasAccess(s *seq, loc string, at pattern.Access, p *pattern.Pattern) bool {
	for _, ei := range s.byLoc[loc] {
		if access(s.evs[ei], at, p) {
			return true
		}
	}
	return false
}

// matchLocs matches p with its events' locations fixed.
func (m *matcher) matchLocs(p *pattern.Pattern, x, y *seq, groups [2][]int, locs []string) {
	t0 := m.tuples(p, x, groups[0], locs)
	if len(t0) == 0 {
		return
	}
	t1 := m.tuples(p, y, groups[1], locs)
	evs := make([]*symbolic.Event, p.Len())
	for _, a := range t0 {
		for _, b := range t1 {
			for k, i := range groups[0] {
				evs[i] = a[k]
			}
			for k, i := range groups[1] {
				evs[i] = b[k]
			}
			if m.excluded(p, groups, evs) || p.Adjacent && !p.Atomic && allAtomic(evs) {
				continue
			}
			m.emit(p, x, y, evs)
			if m.pairCount >= MaxPerPair || len(m.out) >= MaxPerPackage {
				return
			}
		}
	}
}

// tuples enumerates the event combinations of one thread: event group[k]
// at locs[group[k]] with a matching access type, the events of one atomic
// region (same AR) in the same unit of work, and each event able to
// follow the previous one in program order. Combinations that no other
// check can tell apart (same sites, accesses and locksets) are kept once.
//
// The result depends only on the group's shape (locations, access types,
// which events share a region, whether atomics match), so it is cached in
// s for every pattern and every pair s takes part in.
func (m *matcher) tuples(p *pattern.Pattern, s *seq, group []int, locs []string) [][]*symbolic.Event {
	// Written without fmt: the key is made for every location
	// assignment of every pattern and pair, and fmt made it 85% of
	// tuples' time (logrus: 0.28 s of the package's 0.64 s analysis).
	var shape strings.Builder
	n := 5
	for _, i := range group {
		n += len(locs[i]) + 8
	}
	shape.Grow(n)
	shape.WriteString(strconv.FormatBool(p.Atomic || p.Adjacent)) // as access lets atomics match
	for k, i := range group {
		ar := k
		for kk := range k {
			if p.AR[group[kk]] == p.AR[i] {
				ar = kk
				break
			}
		}
		shape.WriteByte('|')
		shape.WriteString(locs[i])
		shape.WriteByte(' ')
		shape.WriteString(p.AT[i].String())
		shape.WriteByte(' ')
		shape.WriteString(strconv.Itoa(ar))
	}
	key := shape.String()
	if t, ok := s.tupleCache[key]; ok {
		return t
	}
	if s.tupleCache == nil {
		s.tupleCache = map[string][][]*symbolic.Event{}
	}
	var out [][]*symbolic.Event
	defer func() { s.tupleCache[key] = out }()
	seen := map[string]bool{}
	cur := make([]*symbolic.Event, 0, len(group))
	var rec func(k int)
	rec = func(k int) {
		if len(out) >= maxTuples {
			return
		}
		if k == len(group) {
			sig := m.signature(cur)
			if !seen[sig] {
				seen[sig] = true
				out = append(out, slices.Clone(cur))
			}
			return
		}
		i := group[k]
		for _, ei := range s.byLoc[locs[i]] {
			e := s.evs[ei]
			if !access(e, p.AT[i], p) {
				continue
			}
			ok := true
			for kk := range k {
				if p.AR[group[kk]] == p.AR[i] && !sameRegion(s, cur[kk], e) {
					ok = false
					break
				}
			}
			if ok && k > 0 && !m.sym.MayPrecede(cur[k-1], e) {
				ok = false
			}
			if !ok {
				continue
			}
			cur = append(cur, e)
			rec(k + 1)
			cur = cur[:k]
		}
	}
	rec(0)
	return out
}

// signature identifies a thread's combination for the later checks.
func (m *matcher) signature(evs []*symbolic.Event) string {
	var b strings.Builder
	for k, e := range evs {
		b.WriteString(m.site(e))
		b.WriteByte('|')
		b.WriteString(e.Op.String())
		b.WriteByte('|')
		for _, h := range e.Held {
			b.WriteString(h.String())
			b.WriteByte(',')
		}
		if k > 0 {
			b.WriteString("|cs:")
			for _, h := range sharedCS(evs[k-1], e) {
				b.WriteString(h.String())
				b.WriteByte(',')
			}
		}
		b.WriteByte(';')
	}
	return b.String()
}

// sameRegion reports whether two events of s can be in one atomic region:
// the context is one unit, or both come from one method call, or both are
// in one critical section.
//
// When a and b are the same event (executed twice, in a loop), the unit
// or critical section must contain the loop (UnitRepeat, Held.Repeat).
func sameRegion(s *seq, a, b *symbolic.Event) bool {
	if s.whole || len(sharedCS(a, b)) > 0 {
		return true
	}
	return a.Unit != 0 && a.Unit == b.Unit && (a != b || a.UnitRepeat)
}

// sharedCS returns the known locks held continuously from a to b: held at
// both with the same acquisition (for one event executed twice: held
// across the loop that repeats it).
func sharedCS(a, b *symbolic.Event) []symbolic.Held {
	var out []symbolic.Held
	for _, ha := range a.Held {
		if !ha.Known() || ha.CS <= 0 || a == b && !ha.Repeat {
			continue
		}
		for _, hb := range b.Held {
			if hb.Lock == ha.Lock && hb.CS == ha.CS {
				h := ha
				h.Read = ha.Read || hb.Read
				out = append(out, h)
			}
		}
	}
	return out
}

// conflicting reports whether a and b hold a common lock in conflicting
// modes (at least one writer), which makes them mutually exclusive.
func conflicting(a, b []symbolic.Held) (symbolic.Held, bool) {
	for _, ha := range a {
		for _, hb := range b {
			if ha.Conflicts(hb) {
				return ha, true
			}
		}
	}
	return symbolic.Held{}, false
}

// excluded reports whether locks make the instance impossible: for an
// adjacent two-event pattern (a race), a common lock in conflicting modes;
// for every pattern, events of both threads inside Once.Do bodies of the
// same Once; and an event of one thread that must fall between two
// consecutive events of the other thread's region while holding, in a
// conflicting mode, a lock that region holds continuously from the first
// to the second.
func (m *matcher) excluded(p *pattern.Pattern, groups [2][]int, evs []*symbolic.Event) bool {
	if p.Adjacent && p.Len() == 2 {
		if _, ok := conflicting(evs[0].Held, evs[1].Held); ok {
			return true
		}
	}
	// Only one Once.Do body of a Once ever runs.
	for _, a := range groups[0] {
		for _, ha := range evs[a].Held {
			if !ha.Once {
				continue
			}
			for _, b := range groups[1] {
				for _, hb := range evs[b].Held {
					if hb.Once && hb.Lock == ha.Lock {
						return true
					}
				}
			}
		}
	}
	for t := range 2 {
		g := groups[t]
		for k := 1; k < len(g); k++ {
			a, b := g[k-1], g[k]
			if p.AR[a] != p.AR[b] {
				continue
			}
			shared := sharedCS(evs[a], evs[b])
			if len(shared) == 0 {
				continue
			}
			for z := a + 1; z < b; z++ {
				if p.T[z] == t {
					continue
				}
				if _, ok := conflicting(shared, evs[z].Held); ok {
					return true
				}
			}
		}
	}
	return false
}

// site renders an event's site for keys.
func (m *matcher) site(e *symbolic.Event) string {
	s, ok := m.sites[e.Pos]
	if !ok {
		s = m.sym.Fset.Position(e.Pos).String()
		m.sites[e.Pos] = s
	}
	if e.Ext != "" {
		s += " via " + e.Ext
	}
	return s
}

// emit records a candidate unless its key was seen.
func (m *matcher) emit(p *pattern.Pattern, x, y *seq, evs []*symbolic.Event) {
	sites := make([]string, len(evs))
	for i, e := range evs {
		sites[i] = m.site(e)
	}
	key := pattern.Key(p, sites)
	if m.keys[key] {
		return
	}
	m.keys[key] = true
	m.pairCount++
	c := Candidate{
		Kind:    p.Kind,
		Pattern: p.Name,
		P:       p,
		Sites:   make([]token.Pos, len(evs)),
		Events:  make([]symbolic.Event, len(evs)),
		Funcs:   [2]Context{x.ctx, y.ctx},
		Key:     key,
	}
	for i, e := range evs {
		c.Sites[i] = e.Pos
		c.Events[i] = *e
	}
	c.Why = m.why(p, x, y, evs)
	m.out = append(m.out, c)
}

// why explains a candidate.
func (m *matcher) why(p *pattern.Pattern, x, y *seq, evs []*symbolic.Event) string {
	var b strings.Builder
	if x == y {
		fmt.Fprintf(&b, "%s, twice concurrently: ", x.ctx.Name)
	} else {
		fmt.Fprintf(&b, "%s runs concurrently with %s: ", x.ctx.Name, y.ctx.Name)
	}
	for i, e := range evs {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s at %s", p.AT[i], e.Loc, m.short(e.Pos))
		if e.Ext != "" {
			fmt.Fprintf(&b, " (via %s)", e.Ext)
		}
		if len(e.Held) > 0 {
			b.WriteString(" holding")
			for _, h := range e.Held {
				b.WriteString(" " + h.String())
			}
		}
	}
	switch {
	case p.Adjacent:
		b.WriteString("; no common lock excludes them")
	default:
		b.WriteString("; no lock held across the region excludes the interleaving")
	}
	return b.String()
}

// allAtomic reports whether every event of evs is a sync/atomic access.
func allAtomic(evs []*symbolic.Event) bool {
	for _, e := range evs {
		if !e.Op.IsAtomic() {
			return false
		}
	}
	return true
}
