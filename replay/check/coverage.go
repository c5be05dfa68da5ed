package check

import (
	"strings"

	"github.com/pecanvet/pecanvet/ssatrace/driver"
	"github.com/pecanvet/pecanvet/ssatrace/trace"
)

// coverage says which goroutines of the recorded traces ran which sites,
// by line: enough to tell whether a run held both sides of a static
// candidate in two goroutines, the first cut of "a test reaches the
// candidate" (sound: a candidate no run held that way cannot have been
// predicted from these runs).
type coverage struct {
	// traces: per trace, site "path:line" → up to two distinct goroutines
	// that ran it (two are enough to find one different from any other).
	traces []map[string][2]int32
}

func newCoverage() *coverage { return &coverage{} }

// add takes the sites of a trace's accesses and synchronization.
func (c *coverage) add(tr *trace.Trace) {
	lines := make([]string, len(tr.Sites)) // site index → "path:line"
	for i, s := range tr.Sites {
		lines[i] = lineOf(s)
	}
	m := map[string][2]int32{}
	for _, e := range tr.Events {
		if e.Site < 0 || int(e.Site) >= len(lines) {
			continue
		}
		k := lines[e.Site]
		g, ok := m[k]
		switch {
		case !ok:
			m[k] = [2]int32{e.G, -1}
		case g[1] < 0 && g[0] != e.G:
			m[k] = [2]int32{g[0], e.G}
		}
	}
	c.traces = append(c.traces, m)
}

// held reports whether some trace ran a site of each side of the
// candidate in two different goroutines.
func (c *coverage) held(s driver.Sides) bool {
	for _, m := range c.traces {
		for _, a := range s[0] {
			ga, ok := m[a]
			if !ok {
				continue
			}
			for _, b := range s[1] {
				gb, ok := m[b]
				if !ok {
					continue
				}
				for _, x := range ga {
					for _, y := range gb {
						if x >= 0 && y >= 0 && x != y {
							return true
						}
					}
				}
			}
		}
	}
	return false
}

// lineOf drops the column of a "path:line:col" site.
func lineOf(site string) string {
	if i := strings.LastIndexByte(site, ':'); i > 0 && strings.Count(site, ":") >= 2 {
		return site[:i]
	}
	return site
}
