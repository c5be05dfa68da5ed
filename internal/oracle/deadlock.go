package oracle

import (
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
)

// DeadlockKeys returns the lock-order inversions of the trace that some
// feasible schedule drives into a deadlock, for lock pattern p: for each
// report key (pattern.Key of the events a1, b2, b1, a2, as predict orders
// them), a witness whose Schedule runs a feasible prefix after which
// goroutine G1 waits at b1 for a lock G2 holds since b2, and G2 at a2 for
// one G1 holds since a1. G1 is the goroutine whose waiting acquisition
// comes first in the trace.
//
// It explores every reachable state (events run per goroutine), so it is
// exponential: for traces of a few dozen events.
func (m *Model) DeadlockKeys(p *pattern.Pattern) map[string]Witness {
	out := map[string]Witness{}
	m.eachState(func(s *search) { m.deadlocksAt(s, p, out) })
	return out
}

// deadlocksAt adds the deadlocks of the current state: two goroutines
// whose next events are acquisitions, each of a lock the other holds in
// a mode that excludes it.
func (m *Model) deadlocksAt(s *search, p *pattern.Pattern, out map[string]Witness) {
	for g1 := range s.pos {
		for g2 := range s.pos {
			if g1 == g2 || s.pos[g1] == len(m.seq[g1]) || s.pos[g2] == len(m.seq[g2]) {
				continue
			}
			b1, a2 := m.seq[g1][s.pos[g1]], m.seq[g2][s.pos[g2]]
			if b1 > a2 || !m.ev[b1].Op.IsAcquire() || !m.ev[a2].Op.IsAcquire() {
				continue
			}
			a1 := m.holding(s, g1, m.ev[a2])
			b2 := m.holding(s, g2, m.ev[b1])
			if a1 < 0 || b2 < 0 {
				continue
			}
			inst := []int{a1, b2, b1, a2}
			key := pattern.Key(p, m.Sites(inst))
			if _, ok := out[key]; !ok {
				out[key] = Witness{Pattern: p, Inst: inst, Schedule: append(append([]int(nil), s.path...), b1, a2)}
			}
		}
	}
}

// holding returns the event by which goroutine g, in the current state,
// holds the lock that acquisition want asks for in a mode that excludes
// it (the latest such acquisition not released since), or -1.
func (m *Model) holding(s *search, g int, want trace.Event) int {
	var held []int
	for _, e := range m.seq[g][:s.pos[g]] {
		ev := m.ev[e]
		switch {
		case ev.Op.IsAcquire():
			held = append(held, e)
		case ev.Op.IsRelease():
			for i := len(held) - 1; i >= 0; i-- {
				h := m.ev[held[i]]
				if h.Obj == ev.Obj && (h.Op == trace.Lock) == (ev.Op == trace.Unlock) {
					held = append(held[:i], held[i+1:]...)
					break
				}
			}
		}
	}
	for i := len(held) - 1; i >= 0; i-- {
		h := m.ev[held[i]]
		if h.Obj == want.Obj && (h.Op == trace.Lock || want.Op == trace.Lock) {
			return held[i]
		}
	}
	return -1
}

// RWCycleKeys returns the recursive read locks behind a waiting writer
// that some feasible schedule drives into a deadlock, for the
// rlock-writer pattern p: for each report key (pattern.Key of r1, w2,
// r1b), a witness whose Schedule runs a feasible prefix after which
// goroutine G1, holding a read lock of an RWMutex since r1, is at r1b,
// a read lock of it, and G2 at w2, a write lock of it; the schedule ends
// with w2 (which waits for G1's read lock and keeps new readers out) and
// r1b (which waits behind it).
func (m *Model) RWCycleKeys(p *pattern.Pattern) map[string]Witness {
	out := map[string]Witness{}
	m.eachState(func(s *search) { m.rwCyclesAt(s, p, out) })
	return out
}

func (m *Model) rwCyclesAt(s *search, p *pattern.Pattern, out map[string]Witness) {
	for g1 := range s.pos {
		for g2 := range s.pos {
			if g1 == g2 || s.pos[g1] == len(m.seq[g1]) || s.pos[g2] == len(m.seq[g2]) {
				continue
			}
			r1b, w2 := m.seq[g1][s.pos[g1]], m.seq[g2][s.pos[g2]]
			if m.ev[r1b].Op != trace.RLock || m.ev[w2].Op != trace.Lock || m.ev[r1b].Obj != m.ev[w2].Obj {
				continue
			}
			r1 := m.holding(s, g1, m.ev[w2])
			if r1 < 0 || m.ev[r1].Op != trace.RLock {
				continue
			}
			inst := []int{r1, w2, r1b}
			key := pattern.Key(p, m.Sites(inst))
			if _, ok := out[key]; !ok {
				out[key] = Witness{Pattern: p, Inst: inst, Schedule: append(append([]int(nil), s.path...), w2, r1b)}
			}
		}
	}
}

// LostSignalKeys returns the lost signals that some feasible schedule
// reaches, for the cond pattern p: for each report key (pattern.Key of
// the signal and the Wait's entry), a witness whose Schedule runs a
// feasible prefix that has run the signal and ends with the entry (the
// unlock of c.L a Cond.Wait records before waiting). The signal is the
// one that woke that Wait in the trace: the latest signal or broadcast of
// its Cond by another goroutine between the entry and the cond-wait.
func (m *Model) LostSignalKeys(p *pattern.Pattern) map[string]Witness {
	// waking: entry → the signal that woke its Wait.
	waking := map[int]int{}
	for _, row := range m.seq {
		for i := 1; i < len(row); i++ {
			w, entry := row[i], row[i-1]
			ev, en := m.ev[w], m.ev[entry]
			if ev.Op != trace.CondWait || !(en.Op == trace.Unlock || en.Op == trace.RUnlock) || en.Site != ev.Site {
				continue
			}
			for s := w - 1; s > entry; s-- {
				if e := m.ev[s]; e.Obj == ev.Obj && e.G != ev.G && (e.Op == trace.CondSignal || e.Op == trace.CondBroadcast) {
					waking[entry] = s
					break
				}
			}
		}
	}
	out := map[string]Witness{}
	if len(waking) == 0 {
		return out
	}
	m.eachState(func(s *search) {
		for g := range s.pos {
			if s.pos[g] == len(m.seq[g]) {
				continue
			}
			e := m.seq[g][s.pos[g]]
			if sig, ok := waking[e]; ok && s.ran(sig) && s.enabled(e) {
				inst := []int{sig, e}
				key := pattern.Key(p, m.Sites(inst))
				if _, ok := out[key]; !ok {
					out[key] = Witness{Pattern: p, Inst: inst, Schedule: append(append([]int(nil), s.path...), e)}
				}
			}
		}
	})
	return out
}
