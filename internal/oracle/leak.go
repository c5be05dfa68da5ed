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
	return m.LeakKeysLoop(p, alt, nil)
}

// LeakKeysLoop is LeakKeys where sel may also be a case of a select whose
// other branch loops back to it (loopAlt of its site), when stranded's
// goroutine, having run its events before stranded, holds a lock that
// sel's goroutine acquires somewhere in the trace, one of the two in
// write mode: that round never comes.
func (m *Model) LeakKeysLoop(p *pattern.Pattern, alt, loopAlt func(site string) bool) map[string]Witness {
	out := map[string]Witness{}
	// held reports whether goroutine h, after its first n events, holds a
	// lock that goroutine g acquires, one of them in write mode.
	held := func(h, n, g int) bool {
		mode := map[int32]trace.Op{}
		for _, e := range m.seq[h][:n] {
			switch op := m.ev[e].Op; op {
			case trace.Lock, trace.RLock:
				mode[m.ev[e].Obj] = op
			case trace.Unlock, trace.RUnlock:
				delete(mode, m.ev[e].Obj)
			}
		}
		for _, e := range m.seq[g] {
			op := m.ev[e].Op
			if md, ok := mode[m.ev[e].Obj]; ok && (op == trace.Lock || op == trace.RLock) && (md == trace.Lock || op == trace.Lock) {
				return true
			}
		}
		return false
	}
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
			if !ok {
				continue
			}
			h := m.g[str]
			if s.pos[h] == len(m.seq[h]) || m.seq[h][s.pos[h]] != str {
				continue
			}
			if site := m.tr.Site(m.ev[sel]); !alt(site) && (loopAlt == nil || !loopAlt(site) || !held(h, s.pos[h], g)) {
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

// StopLeakKeys returns the stop-channel leaks of the trace that some
// feasible schedule reaches, for leak pattern p: for each report key
// (pattern.Key of the events sel, stranded), a witness whose Schedule
// runs a feasible prefix after which three goroutines' next events are
// sel, stranded and a stop of a channel that sel's goroutine received
// from at a site where one of sel's select's stop cases receives from
// that channel (stop(sel's site, that site)): the close that receive saw,
// or the send of an unbuffered channel it took, a third goroutine's;
// then the stop, sel and stranded. The shape, from the trace alone: sel
// and stranded are the k-th send and the k-th receive of an unbuffered
// channel, in two goroutines; every other operation that could complete
// stranded (one of sel's direction, a close of the channel) is sel's
// goroutine's, or a close by stranded's goroutine after stranded; sel's
// select has a stop case (stop(site, "")) and stranded's has none. There
// the select may take its stop case and leave the partner blocked
// forever.
//
// It explores every reachable state, so it is exponential: for traces of
// a few dozen events.
func (m *Model) StopLeakKeys(p *pattern.Pattern, stop func(sel, stop string) bool) map[string]Witness {
	out := map[string]Witness{}
	if stop == nil {
		return out
	}
	site := func(e int) string { return m.tr.Site(m.ev[e]) }
	type ops struct{ send, recv, close []int }
	chans := map[int32]*ops{}
	buffered := map[int32]bool{}
	for e, ev := range m.ev {
		if !ev.Op.IsChan() {
			continue
		}
		c := chans[ev.Obj]
		if c == nil {
			c = &ops{}
			chans[ev.Obj] = c
		}
		switch {
		case ev.Arg != 0:
			buffered[ev.Obj] = true
		case ev.Op == trace.Close:
			c.close = append(c.close, e)
		case ev.Flags&trace.FlagClosed != 0:
		case ev.Op == trace.Send:
			c.send = append(c.send, e)
		default:
			c.recv = append(c.recv, e)
		}
	}
	// stops returns the operations of goroutines other than gs and gp
	// that stopped a receive of gs's at a stop case of sel's select: a
	// close the receive saw, a send it took.
	stops := func(sel, gs, gp int, obj int32) []int {
		var st []int
		for e, ev := range m.ev {
			if ev.Op != trace.Recv || m.g[e] != gs || ev.Obj == obj || buffered[ev.Obj] || !stop(site(sel), site(e)) {
				continue
			}
			x := chans[ev.Obj]
			if ev.Flags&trace.FlagClosed != 0 {
				for _, cl := range x.close {
					if g := m.g[cl]; g != gs && g != gp {
						st = append(st, cl)
					}
				}
				continue
			}
			for k, r := range x.recv {
				if r == e && k < len(x.send) && m.g[x.send[k]] != gs && m.g[x.send[k]] != gp {
					st = append(st, x.send[k])
				}
			}
		}
		return st
	}
	// The candidates: (stop, sel, stranded).
	var cands [][3]int
	for obj, c := range chans {
		if buffered[obj] {
			continue
		}
		for k := 0; k < len(c.send) && k < len(c.recv); k++ {
			for _, pr := range [][2]int{{c.recv[k], c.send[k]}, {c.send[k], c.recv[k]}} {
				sel, str := pr[0], pr[1]
				gs, gp := m.g[sel], m.g[str]
				if gs == gp || !stop(site(sel), "") || stop(site(str), "") {
					continue
				}
				others := append(append([]int(nil), c.close...), c.recv...)
				if m.ev[sel].Op == trace.Send {
					others = append(append([]int(nil), c.close...), c.send...)
				}
				ok := true
				for _, o := range others {
					if o != sel && m.g[o] != gs && !(m.g[o] == gp && m.ev[o].Op == trace.Close && o > str) {
						ok = false
					}
				}
				if !ok {
					continue
				}
				for _, st := range stops(sel, gs, gp, obj) {
					cands = append(cands, [3]int{st, sel, str})
				}
			}
		}
	}
	if len(cands) == 0 {
		return out
	}
	m.eachState(func(s *search) {
		for _, c := range cands {
			next := true
			for _, e := range c {
				g := m.g[e]
				if s.pos[g] == len(m.seq[g]) || m.seq[g][s.pos[g]] != e {
					next = false
				}
			}
			if !next {
				continue
			}
			inst := []int{c[1], c[2]}
			key := pattern.Key(p, m.Sites(inst))
			if _, ok := out[key]; !ok {
				out[key] = Witness{Pattern: p, Inst: inst, Schedule: append(append([]int(nil), s.path...), c[0], c[1], c[2])}
			}
		}
	})
	return out
}
