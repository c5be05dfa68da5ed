package oracle

import (
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
)

// StaleInversionKeys returns the stale reads' lock-order inversions that
// some feasible schedule reaches, for the lock relock pattern p (AT=r-w):
// for each report key (pattern.Key of the read and the write), a witness
// whose Schedule is a feasible schedule ending with the read. The read r
// is a read at a site inversion accepts; the write w is the latest write
// before it in the trace to the same variable, by another goroutine. The
// state before r must be the deadlock's threshold: w has not run; r's
// goroutine holds a lock A that w's goroutine holds at w in a mode
// excluding it, so that w's goroutine must still ask for A and wait; and
// w's goroutine holds a lock B, that r's goroutine does not hold, in
// every one of its events from there to w (it holds B while it waits
// for A, and r's goroutine, down the older value's path, may ask for B).
func (m *Model) StaleInversionKeys(p *pattern.Pattern, inversion func(site string) bool) map[string]Witness {
	type cand struct{ w int }
	byRead := map[int]cand{}
	lastW := map[int32]int{}
	for e, ev := range m.ev {
		if ev.Op == trace.Write {
			lastW[ev.Obj] = e
		}
		if ev.Op != trace.Read || ev.Site < 0 {
			continue
		}
		if w, ok := lastW[ev.Obj]; ok && m.g[w] != m.g[e] && inversion(m.tr.Site(ev)) {
			byRead[e] = cand{w}
		}
	}
	out := map[string]Witness{}
	if len(byRead) == 0 {
		return out
	}
	holdsLock := func(l Lockset, lock int32) bool {
		for _, h := range l {
			if h.Lock == lock {
				return true
			}
		}
		return false
	}
	m.eachState(func(s *search) {
		for g := range s.pos {
			if s.pos[g] == len(m.seq[g]) {
				continue
			}
			r := m.seq[g][s.pos[g]]
			c, ok := byRead[r]
			if !ok || !s.enabled(r) || s.ran(c.w) {
				continue
			}
			lr, lw := m.locks[r], m.locks[c.w]
			g1 := m.g[c.w]
			// A: held by r's goroutine, needed by w in an excluding mode,
			// not held by w's goroutine now (it must still ask for it).
			var now Lockset
			if s.pos[g1] > 0 {
				now = m.locks[m.seq[g1][s.pos[g1]-1]]
			}
			blocks := false
			for _, a := range lw {
				for _, h := range lr {
					if h.Lock == a.Lock && (h.Write || a.Write) && !holdsLock(now, a.Lock) {
						blocks = true
					}
				}
			}
			if !blocks {
				continue
			}
			// B: held by w's goroutine from now through w, not by r's.
			found := false
			for _, b := range now {
				if holdsLock(lr, b.Lock) {
					continue
				}
				kept := true
				for i := s.pos[g1]; i <= m.po[c.w]; i++ {
					if !m.locks[m.seq[g1][i]].has(b.Lock, b.Write) {
						kept = false
						break
					}
				}
				if kept {
					found = true
				}
			}
			if !found {
				continue
			}
			inst := []int{r, c.w}
			key := pattern.Key(p, m.Sites(inst))
			if _, ok := out[key]; !ok {
				out[key] = Witness{Pattern: p, Inst: inst, Schedule: append(append([]int(nil), s.path...), r)}
			}
		}
	})
	return out
}
