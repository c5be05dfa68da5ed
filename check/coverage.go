package check

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/static/driver"
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

// CandidateStatus is what the dynamic loop made of a static candidate:
// the coverage report that tells a user what pecanvet's silence covers.
type CandidateStatus struct {
	Package string
	driver.Candidate
	// Status is "confirmed" (a reported finding has a site on each of its
	// sides), "pruned" (the recorded runs held both sides in two
	// goroutines, and prediction or replay ruled every instance out),
	// "not reached" (no run of a test or driver held both sides in two
	// goroutines) or "not driven" (not reached, and no driver could be
	// generated for it, or its driver skipped: Why says why).
	Status string
	Why    string
	// Reachers are the tests whose call graph reaches both of its
	// contexts (static/reach), sorted.
	Reachers []string
}

// candidateStatuses gives each candidate of pkg its status from the
// package's findings and what its tests' runs (cov) and its drivers'
// runs (drv) held.
func candidateStatuses(pkg string, cands []driver.Candidate, findings []Finding, cov, drv *coverage, reach map[string][]int) []CandidateStatus {
	out := make([]CandidateStatus, 0, len(cands))
	reachers := reachersOf(len(cands), reach)
	for ci, c := range cands {
		st := CandidateStatus{Package: pkg, Candidate: c, Reachers: reachers[ci]}
		var pruned *Finding
		for i := range findings {
			f := &findings[i]
			if f.Package != pkg || !onSides(f.Anomaly.Sites, c.Sides) {
				continue
			}
			if f.Reproduced() && !f.WithoutEffect() {
				st.Status = "confirmed"
				st.Why = fmt.Sprintf("%s reproduced at %s in %s", f.Anomaly.Pattern.ID(), f.Anomaly.Sites[0], f.Test)
				break
			}
			if pruned == nil {
				pruned = f
			}
		}
		switch {
		case st.Status != "":
		case pruned != nil:
			st.Status = "pruned"
			what := pruned.Verdict.Verdict
			if pruned.WithoutEffect() {
				what = "reproduced without effect"
			}
			st.Why = fmt.Sprintf("%s %s at %s in %s", pruned.Anomaly.Pattern.ID(), what, pruned.Anomaly.Sites[0], pruned.Test)
			if m := firstClause(pruned.Verdict.Message); m != "" && !pruned.WithoutEffect() {
				st.Why += ": " + m
			}
		case cov.held(c.Sides) || drv.held(c.Sides):
			st.Status = "pruned"
			st.Why = "both sides ran in two goroutines; no feasible reordering of the recorded runs makes the anomaly (nothing predicted)"
		case c.Driver == "":
			st.Status, st.Why = "not driven", c.NoDriver+reachedBy(st.Reachers, reach != nil)
		default:
			st.Status = "not reached"
			st.Why = "no run of a test, nor of its driver " + c.Driver + ", held both sides in two goroutines" + reachedBy(st.Reachers, reach != nil)
		}
		out = append(out, st)
	}
	return out
}

// reachersOf inverts reach (test → candidate indices): per candidate, the
// tests reaching it, sorted.
func reachersOf(n int, reach map[string][]int) [][]string {
	out := make([][]string, n)
	for _, t := range slices.Sorted(maps.Keys(reach)) {
		for _, i := range reach[t] {
			if i >= 0 && i < n {
				out[i] = append(out[i], t)
			}
		}
	}
	return out
}

// reachedBy completes a not-reached candidate's reason with what the call
// graph says: the tests that could have held it, or that none could.
func reachedBy(tests []string, graph bool) string {
	switch {
	case !graph:
		return ""
	case len(tests) == 0:
		return "; no test reaches both sides in the call graph"
	case len(tests) == 1:
		return "; " + tests[0] + " reaches both sides in the call graph"
	}
	return fmt.Sprintf("; %s and %d more tests reach both sides in the call graph", tests[0], len(tests)-1)
}

// onSides reports whether the anomaly's sites ("path:line:col") have one
// on each side of a candidate ("path:line").
func onSides(sites []string, s driver.Sides) bool {
	in := func(side []string, site string) bool {
		l := lineOf(site)
		for _, x := range side {
			if x == l {
				return true
			}
		}
		return false
	}
	for _, a := range sites {
		if !in(s[0], a) {
			continue
		}
		for _, b := range sites {
			if in(s[1], b) {
				return true
			}
		}
	}
	return false
}

// firstClause is a verdict message up to its first ':' clause end, for
// one line.
func firstClause(m string) string {
	if i := strings.Index(m, ": "); i > 0 && i < 100 {
		return m[:i]
	}
	if len(m) > 100 {
		return m[:100] + "…"
	}
	return m
}
