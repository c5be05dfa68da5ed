package oracle

import (
	"slices"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
)

// Real reports whether instance inst of p is real — whether some feasible
// schedule realizes it — and returns such a schedule, which ends with the
// instance's last event.
//
// The search is exhaustive over the states (events run per goroutine, number
// of instance events run), memoized; the lock state is a function of the
// per-goroutine positions, so the state determines everything that matters.
func (m *Model) Real(p *pattern.Pattern, inst []int) ([]int, bool) {
	sched, ok, _ := m.real(p, inst)
	return sched, ok
}

// real is Real that also returns the number of search states visited.
func (m *Model) real(p *pattern.Pattern, inst []int) ([]int, bool, int) {
	k := len(inst)
	if k == 0 {
		return nil, true, 0
	}
	role := make([]int, m.n) // index of each event in inst, or -1
	for i := range role {
		role[i] = -1
	}
	for i, e := range inst {
		if e < 0 || e >= m.n || role[e] >= 0 {
			return nil, false, 0
		}
		role[e] = i
	}
	// Sound shortcut: POR(inst[j], inst[i]) with i < j forces the order the
	// pattern forbids.
	for i := range k {
		for j := i + 1; j < k; j++ {
			if m.POR(inst[j], inst[i]) {
				return nil, false, 0
			}
		}
	}
	s := &search{m: m, inst: inst, role: role, adjacent: p.Adjacent, pos: make([]int, len(m.seq))}
	s.initVisited()
	if s.dfs(0) {
		return slices.Clone(s.path), true, s.states
	}
	return nil, false, s.states
}

type search struct {
	m        *Model
	inst     []int
	role     []int
	adjacent bool
	pos      []int // per goroutine: how many of its events ran
	path     []int

	stride []int // mixed-radix encoding of (pos, k)
	dense  []bool
	sparse map[string]bool

	states int // states visited
}

const maxDense = 1 << 22

func (s *search) initVisited() {
	total := 1
	s.stride = make([]int, len(s.pos)+1)
	for g, q := range s.m.seq {
		s.stride[g] = total
		total *= len(q) + 1
		if total > maxDense {
			s.sparse = map[string]bool{}
			return
		}
	}
	s.stride[len(s.pos)] = total
	total *= len(s.inst) + 1
	if total > maxDense {
		s.sparse = map[string]bool{}
		return
	}
	s.dense = make([]bool, total)
}

// visit marks the current state visited and reports whether it was new.
func (s *search) visit(k int) bool {
	s.states++
	if s.sparse != nil {
		key := make([]byte, 0, 4*(len(s.pos)+1))
		for _, p := range append(slices.Clone(s.pos), k) {
			key = append(key, byte(p), byte(p>>8), byte(p>>16), byte(p>>24))
		}
		if s.sparse[string(key)] {
			return false
		}
		s.sparse[string(key)] = true
		return true
	}
	i := k * s.stride[len(s.pos)]
	for g, p := range s.pos {
		i += p * s.stride[g]
	}
	if s.dense[i] {
		return false
	}
	s.dense[i] = true
	return true
}

// eachState calls at once in every state that some feasible schedule
// reaches from the start (events run per goroutine, each state visited
// once), with s.path the events run to reach it. It is exponential: for
// traces of a few dozen events.
func (m *Model) eachState(at func(s *search)) {
	s := &search{m: m, pos: make([]int, len(m.seq))}
	s.initVisited()
	var walk func()
	walk = func() {
		if !s.visit(0) {
			return
		}
		at(s)
		for g := range s.pos {
			if s.pos[g] == len(m.seq[g]) {
				continue
			}
			e := m.seq[g][s.pos[g]]
			if !s.enabled(e) {
				continue
			}
			s.pos[g]++
			s.path = append(s.path, e)
			walk()
			s.pos[g]--
			s.path = s.path[:len(s.path)-1]
		}
	}
	walk()
}

// ran reports whether event e has run in the current state.
func (s *search) ran(e int) bool { return s.pos[s.m.g[e]] > s.m.po[e] }

// enabled reports whether the next event e of its goroutine may run now.
func (s *search) enabled(e int) bool {
	m := s.m
	for _, a := range m.preds[e] {
		if !s.ran(a) {
			return false
		}
	}
	ev := m.ev[e]
	if ev.Op.IsAcquire() {
		write := ev.Op == trace.Lock
		for h, p := range s.pos {
			if p == 0 {
				continue
			}
			held := m.locks[m.seq[h][p-1]]
			if held.has(ev.Obj, true) || (write && held.has(ev.Obj, false)) {
				return false
			}
		}
	}
	return true
}

func (s *search) dfs(k int) bool {
	if k == len(s.inst) {
		return true
	}
	if !s.visit(k) {
		return false
	}
	m := s.m
	want := s.inst[k]
	gw := m.g[want]
	// Try the goroutine of the next instance event first, then the others.
	for i := -1; i < len(s.pos); i++ {
		g := i
		if i < 0 {
			g = gw
		} else if i == gw {
			continue
		}
		if s.pos[g] == len(m.seq[g]) {
			continue
		}
		e := m.seq[g][s.pos[g]]
		nk := k
		if r := s.role[e]; r >= 0 {
			if r != k {
				continue
			}
			nk = k + 1
		} else if s.adjacent && k > 0 {
			continue
		}
		if !s.enabled(e) {
			continue
		}
		s.pos[g]++
		s.path = append(s.path, e)
		if s.dfs(nk) {
			return true
		}
		s.pos[g]--
		s.path = s.path[:len(s.path)-1]
	}
	return false
}

// Witness is a real instance with a feasible schedule realizing it.
type Witness struct {
	Pattern  *pattern.Pattern
	Inst     []int
	Schedule []int
}

// Sites returns the site names of inst's events ("" for none).
func (m *Model) Sites(inst []int) []string {
	sites := make([]string, len(inst))
	for i, e := range inst {
		sites[i] = m.tr.Site(m.ev[e])
	}
	return sites
}

// RealKeys returns the real reports of the trace for pats: for each report
// key (pattern.Key of a real instance), the first real instance found, in
// pattern order then instance order.
func (m *Model) RealKeys(pats []*pattern.Pattern) map[string]Witness {
	out := map[string]Witness{}
	for _, p := range pats {
		for _, inst := range m.Instances(p) {
			key := pattern.Key(p, m.Sites(inst))
			if _, ok := out[key]; ok {
				continue
			}
			if sched, ok := m.Real(p, inst); ok {
				out[key] = Witness{Pattern: p, Inst: inst, Schedule: sched}
			}
		}
	}
	return out
}
