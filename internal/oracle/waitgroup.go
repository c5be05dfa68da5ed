package oracle

import (
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
)

// EarlyWaitKeys returns the WaitGroup.Add-after-Wait instances that some
// feasible schedule reaches, for the wg pattern p: for each report key
// (pattern.Key of the Wait's wg-wait and the Add), a witness whose
// Schedule runs a feasible prefix that leaves the Add's goroutine just
// before the Add and ends with the Wait's entry. The entry is the write
// of the WaitGroup's memory that the recorder writes right before the
// wg-wait of a Wait that blocks, at its site; the Add is the latest Add
// from 0 of that memory (a wg-add followed in its goroutine by a read at
// its site) by another goroutine before the entry in the trace.
func (m *Model) EarlyWaitKeys(p *pattern.Pattern) map[string]Witness {
	type cand struct{ wait, add int }
	byEntry := map[int]cand{}
	lastAdd := map[int32]int{}
	for e, ev := range m.ev {
		row, i := m.seq[m.g[e]], m.po[e]
		switch {
		case ev.Op == trace.Read && i > 0:
			if a := row[i-1]; m.ev[a].Op == trace.WGAdd && m.ev[a].Site == ev.Site {
				lastAdd[ev.Obj] = a
			}
		case ev.Op == trace.Write && i+1 < len(row):
			w := row[i+1]
			if m.ev[w].Op != trace.WGWait || m.ev[w].Site != ev.Site {
				continue
			}
			if a, ok := lastAdd[ev.Obj]; ok && m.g[a] != m.g[e] {
				byEntry[e] = cand{w, a}
			}
		}
	}
	out := map[string]Witness{}
	if len(byEntry) == 0 {
		return out
	}
	m.eachState(func(s *search) {
		for g := range s.pos {
			if s.pos[g] == len(m.seq[g]) {
				continue
			}
			e := m.seq[g][s.pos[g]]
			c, ok := byEntry[e]
			if !ok || !s.enabled(e) || s.pos[m.g[c.add]] != m.po[c.add] {
				continue
			}
			inst := []int{c.wait, c.add}
			key := pattern.Key(p, m.Sites(inst))
			if _, ok := out[key]; !ok {
				out[key] = Witness{Pattern: p, Inst: inst, Schedule: append(append([]int(nil), s.path...), e)}
			}
		}
	})
	return out
}
