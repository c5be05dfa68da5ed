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
// its site) by another goroutine before the entry in the trace. A Wait
// that did not block (no entry) is its own entry, with the first Add from
// 0 of its WaitGroup by another goroutine after it in the trace.
func (m *Model) EarlyWaitKeys(p *pattern.Pattern) map[string]Witness {
	type cand struct{ wait, add int }
	byEntry := map[int]cand{}
	lastAdd := map[int32]int{}
	open := map[int32][]int{} // a WaitGroup → its Waits that did not block, not yet paired
	for e, ev := range m.ev {
		row, i := m.seq[m.g[e]], m.po[e]
		switch {
		case ev.Op == trace.WGWait && i > 0:
			// A Wait with no entry before it did not block: its entry is
			// the wg-wait itself, paired with the first later Add from 0
			// of another goroutine (predict.ObservedEarlyWaits).
			if p := m.ev[row[i-1]]; p.Op != trace.Write || p.Site != ev.Site {
				open[ev.Obj] = append(open[ev.Obj], e)
			}
		case ev.Op == trace.Read && i > 0:
			if a := row[i-1]; m.ev[a].Op == trace.WGAdd && m.ev[a].Site == ev.Site {
				lastAdd[ev.Obj] = a
				ws := open[m.ev[a].Obj]
				kept := ws[:0]
				for _, w := range ws {
					if m.g[w] == m.g[a] {
						kept = append(kept, w)
						continue
					}
					byEntry[w] = cand{w, a}
				}
				open[m.ev[a].Obj] = kept
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
