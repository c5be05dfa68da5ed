package search

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/ssatrace/pattern"
	"github.com/pecanvet/pecanvet/ssatrace/ptg"
	"github.com/pecanvet/pecanvet/ssatrace/trace"
)

// sameCode returns a trace where main forks n goroutines that all run the
// same code: a locked read-modify-write of x, then an unlocked one of y,
// twice, and joins them.
func sameCode(t testing.TB, n int) *trace.Trace {
	var b strings.Builder
	b.WriteString(trace.TextHeader + "\n")
	for g := 1; g <= n; g++ {
		fmt.Fprintf(&b, "main fork g%d @m.go:1\n", g)
	}
	for round := 0; round < 2; round++ {
		for g := 1; g <= n; g++ {
			if round == 0 {
				fmt.Fprintf(&b, "g%d begin\n", g)
			}
			fmt.Fprintf(&b, "g%[1]d lock mu @a.go:1\ng%[1]d read x @a.go:2\ng%[1]d write x @a.go:3\ng%[1]d unlock mu @a.go:4\n", g)
			fmt.Fprintf(&b, "g%[1]d read y @a.go:5\ng%[1]d write y @a.go:6\n", g)
		}
	}
	for g := 1; g <= n; g++ {
		fmt.Fprintf(&b, "g%d end @a.go:7\nmain join g%d @m.go:2\n", g, g)
	}
	tr, err := trace.ReadTrace(strings.NewReader(b.String()), t.Name(), trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func allPatterns(t testing.TB) []*pattern.Pattern {
	pats, ok := pattern.Builtin("all")
	if !ok {
		t.Fatal("no built-in set all")
	}
	return pats
}

// TestCombinationsIndependentOfGoroutines: the matcher enumerates
// combinations of code, not of goroutines. Before skeletons, a pattern with
// k groups examined G^k class combinations on G goroutines running the same
// code (the blow-up seen in search.(*matcher).classes on a cache library).
func TestCombinationsIndependentOfGoroutines(t *testing.T) {
	pats := allPatterns(t)
	var combos, keys []int
	for _, n := range []int{3, 24} {
		gr := ptg.Build(sameCode(t, n))
		seen := map[string]bool{}
		st := Run(gr, pats, Options{}, func(c Candidate) bool {
			seen[c.Key] = true
			return true
		})
		combos = append(combos, st.Combinations)
		keys = append(keys, len(seen))
	}
	if combos[0] != combos[1] {
		t.Errorf("combinations examined: %d with 3 goroutines, %d with 24; want equal", combos[0], combos[1])
	}
	if keys[0] == 0 || keys[0] != keys[1] {
		t.Errorf("site combinations reported: %d with 3 goroutines, %d with 24; want equal and nonzero", keys[0], keys[1])
	}
}

// TestStop: a search that Stop ends returns promptly and says so; without
// Stop it runs to the end.
func TestStop(t *testing.T) {
	pats := allPatterns(t)
	gr := ptg.Build(sameCode(t, 40))
	full := Run(gr, pats, Options{}, func(Candidate) bool { return false })
	if full.Cut {
		t.Fatal("search without Stop reports a cut")
	}
	polls := 0
	t0 := time.Now()
	st := Run(gr, pats, Options{Stop: func() bool { polls++; return true }}, func(Candidate) bool { return false })
	// The first poll is in the indexing of the atomic regions, before any
	// pattern (CutAt "").
	if !st.Cut || st.CutAt != "" || polls != 1 {
		t.Fatalf("Stop returning true: Cut=%v CutAt=%q after %d polls; want a cut at the first poll, while indexing", st.Cut, st.CutAt, polls)
	}
	if st.Candidates >= full.Candidates {
		t.Errorf("cut search proposed %d candidates, the full one %d", st.Candidates, full.Candidates)
	}
	if d := time.Since(t0); d > 5*time.Second {
		t.Errorf("cut search took %v", d)
	}
}

// TestMaxAssign: a site combination whose goroutine assignments all fail
// is given up after MaxAssign of them, and counted.
func TestMaxAssign(t *testing.T) {
	pats := allPatterns(t)
	gr := ptg.Build(sameCode(t, 30))
	st := Run(gr, pats, Options{MaxAssign: 2}, func(Candidate) bool { return false })
	if st.Capped == 0 {
		t.Fatalf("no site combination capped at 2 assignments: %+v", st)
	}
	st2 := Run(gr, pats, Options{MaxAssign: -1}, func(Candidate) bool { return false })
	if st2.Capped != 0 {
		t.Fatalf("capped without a cap: %+v", st2)
	}
}
