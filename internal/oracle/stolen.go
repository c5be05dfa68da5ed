package oracle

import (
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
)

// StolenKeys returns the stolen partners of the trace that some feasible
// schedule reaches, for stolen-partner pattern p: for each report key
// (pattern.Key of the events thief, stranded), a witness whose Schedule
// runs a feasible prefix after which three goroutines' next events are
// stranded and partner, matched on an unbuffered channel in the
// recording (the k-th send and the k-th receive), and thief, a matched
// operation of stranded's direction on that channel; the schedule then
// has thief take partner. Stranded is surely left blocked only when
// every other operation that could complete it (one of partner's
// direction, or a close) is a later event of its own goroutine: the
// recorded matches, which the oracle's model keeps, no longer hold once
// thief takes partner, so no search of that model could say which other
// operations may take stranded.
//
// It explores every reachable state, so it is exponential: for traces of
// a few dozen events.
func (m *Model) StolenKeys(p *pattern.Pattern) map[string]Witness {
	out := map[string]Witness{}
	type chanOps struct {
		send, recv, close []int
		buffered          bool
	}
	chans := map[int32]*chanOps{}
	for e, ev := range m.ev {
		if !ev.Op.IsChan() {
			continue
		}
		c := chans[ev.Obj]
		if c == nil {
			c = &chanOps{}
			chans[ev.Obj] = c
		}
		switch {
		case ev.Arg != 0:
			c.buffered = true
		case ev.Op == trace.Close:
			c.close = append(c.close, e)
		case ev.Flags&trace.FlagClosed != 0:
		case ev.Op == trace.Send:
			c.send = append(c.send, e)
		default:
			c.recv = append(c.recv, e)
		}
	}
	type cand struct{ thief, stranded, partner int }
	var cands []cand
	completers := map[int][]int{} // stranded → the operations that could complete it, its partner left out
	for _, c := range chans {
		if c.buffered {
			continue
		}
		n := min(len(c.send), len(c.recv))
		add := func(a, b int, same, other []int) {
			var xs []int
			for _, x := range append(append([]int(nil), other...), c.close...) {
				if x != b {
					xs = append(xs, x)
				}
			}
			completers[a] = xs
			for _, t := range same {
				if t != a && m.g[t] != m.g[a] && m.g[t] != m.g[b] {
					cands = append(cands, cand{t, a, b})
				}
			}
		}
		for k := 0; k < n; k++ {
			add(c.recv[k], c.send[k], c.recv[:n], c.send)
			add(c.send[k], c.recv[k], c.send[:n], c.recv)
		}
	}
	if len(cands) == 0 {
		return out
	}
	sure := func(a int) bool {
		for _, x := range completers[a] {
			if m.g[x] != m.g[a] || m.po[x] < m.po[a] {
				return false
			}
		}
		return true
	}
	next := func(s *search, e int) bool {
		g := m.g[e]
		return s.pos[g] < len(m.seq[g]) && m.seq[g][s.pos[g]] == e
	}
	m.eachState(func(s *search) {
		for _, c := range cands {
			if !next(s, c.thief) || !next(s, c.stranded) || !next(s, c.partner) || !sure(c.stranded) {
				continue
			}
			inst := []int{c.thief, c.stranded}
			key := pattern.Key(p, m.Sites(inst))
			if _, ok := out[key]; !ok {
				sched := append([]int(nil), s.path...)
				if m.ev[c.thief].Op == trace.Send {
					sched = append(sched, c.thief, c.partner, c.stranded)
				} else {
					sched = append(sched, c.partner, c.thief, c.stranded)
				}
				out[key] = Witness{Pattern: p, Inst: inst, Schedule: sched}
			}
		}
	})
	return out
}
