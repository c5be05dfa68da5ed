package oracle

import (
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
)

// LeakKeys returns the goroutine leaks of the trace that some feasible
// schedule reaches, for leak pattern p: for each report key (pattern.Key
// of the events sel, stranded), a witness whose Schedule runs a feasible
// prefix after which one goroutine's next event is sel, a case of a
// select with another branch (alt of its site), and another's is
// stranded, its partner: the only other operation on an unbuffered
// channel that is never closed. There the select may take its other
// branch and leave the partner blocked forever.
//
// It explores every reachable state, so it is exponential: for traces of
// a few dozen events.
func (m *Model) LeakKeys(p *pattern.Pattern, alt func(site string) bool) map[string]Witness {
	out := map[string]Witness{}
	// The channels the leak shape allows: one send, one receive, two
	// goroutines, unbuffered, no close.
	ops := map[int32][]int{}
	bad := map[int32]bool{}
	for e, ev := range m.ev {
		if !ev.Op.IsChan() {
			continue
		}
		if ev.Op == trace.Close || ev.Arg != 0 || ev.Flags&trace.FlagClosed != 0 {
			bad[ev.Obj] = true
		}
		ops[ev.Obj] = append(ops[ev.Obj], e)
	}
	partner := map[int]int{}
	for c, es := range ops {
		if bad[c] || len(es) != 2 || m.ev[es[0]].Op == m.ev[es[1]].Op || m.g[es[0]] == m.g[es[1]] {
			continue
		}
		partner[es[0]], partner[es[1]] = es[1], es[0]
	}
	if len(partner) == 0 {
		return out
	}
	m.eachState(func(s *search) {
		for g := range s.pos {
			if s.pos[g] == len(m.seq[g]) {
				continue
			}
			sel := m.seq[g][s.pos[g]]
			str, ok := partner[sel]
			if !ok || !alt(m.tr.Site(m.ev[sel])) {
				continue
			}
			h := m.g[str]
			if s.pos[h] == len(m.seq[h]) || m.seq[h][s.pos[h]] != str {
				continue
			}
			inst := []int{sel, str}
			key := pattern.Key(p, m.Sites(inst))
			if _, ok := out[key]; !ok {
				out[key] = Witness{Pattern: p, Inst: inst, Schedule: append(append([]int(nil), s.path...), sel, str)}
			}
		}
	})
	return out
}
