package search

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/predict/ptg"
)

// TestSymmetryFolds: n goroutines forked at one site run the same code;
// every site combination's candidates come from one assignment of
// goroutines, whatever n, and the other assignments are folded.
func TestSymmetryFolds(t *testing.T) {
	pats := allPatterns(t)
	var cands []int
	for _, n := range []int{3, 24} {
		gr := ptg.Build(sameCode(t, n))
		assigned := map[string]map[string]bool{} // key → goroutine tuples proposed
		st := Run(gr, pats, Options{}, func(c Candidate) bool {
			var gs []string
			for _, e := range c.Events {
				gs = append(gs, gr.Tr.Goroutines[gr.Ev(e).G])
			}
			// Same goroutine tuple up to the order the pattern's
			// threads take: a set of goroutines.
			k := strings.Join(uniq(gs), ",")
			if assigned[c.Key] == nil {
				assigned[c.Key] = map[string]bool{}
			}
			assigned[c.Key][k] = true
			return false
		})
		for key, as := range assigned {
			// A pattern's two threads may take the representative's two
			// goroutines in either order (both assignments' chains are
			// equal): at most those two.
			if len(as) > 1 {
				t.Errorf("n=%d: %s proposed from %d goroutine sets %v; want one", n, key, len(as), as)
			}
		}
		if st.Folded == 0 {
			t.Errorf("n=%d: nothing folded", n)
		}
		cands = append(cands, st.Candidates)
	}
	if cands[0] != cands[1] {
		t.Errorf("candidates: %d with 3 goroutines, %d with 24; want equal", cands[0], cands[1])
	}
}

func uniq(gs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, g := range gs {
		if !seen[g] {
			seen[g] = true
			out = append(out, g)
		}
	}
	return out
}

// TestStartChains: goroutines are alike when forked at the same site by
// alike parents; roots are alike with nothing.
func TestStartChains(t *testing.T) {
	src := trace.TextHeader + `
main fork a1 @m.go:1
main fork a2 @m.go:1
main fork b @m.go:2
a1 fork c1 @w.go:1
a2 fork c2 @w.go:1
b fork c3 @w.go:1
a1 read x @a.go:1
a2 read x @a.go:1
b read x @a.go:1
c1 read x @a.go:1
c2 read x @a.go:1
c3 read x @a.go:1
r1 read x @a.go:1
r2 read x @a.go:1
`
	tr, err := trace.ReadTrace(strings.NewReader(src), t.Name(), trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ids := startChains(ptg.Build(tr))
	id := map[string]int32{}
	for g, name := range tr.Goroutines {
		id[name] = ids[g]
	}
	same := func(a, b string) bool { return id[a] == id[b] }
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"a1", "a2", true}, {"c1", "c2", true}, {"a1", "b", false}, {"c1", "c3", false},
		{"r1", "r2", false}, {"main", "r1", false}, {"a1", "c1", false},
	} {
		if got := same(c.a, c.b); got != c.want {
			t.Errorf("%s and %s alike: %v, want %v (ids %v)", c.a, c.b, got, c.want, fmt.Sprint(id))
		}
	}
}

// TestFoldRunsSameCandidates: skipping a run of members whose assignments
// are all folded (foldRun) proposes the same candidates, in the same
// order, as trying each assignment; with workers from two fork sites
// interleaved (short runs), one nested, and the main goroutine too, and
// site keys that come back with their representatives set. The skipped
// assignments count as steps: the work bound is polled as often, and a
// search it cuts stops at the same place.
func TestFoldRunsSameCandidates(t *testing.T) {
	defer func() { foldRuns = true }()
	var b strings.Builder
	b.WriteString(trace.TextHeader + "\n")
	const n = 12
	for g := 1; g <= n; g++ {
		fmt.Fprintf(&b, "main fork g%d @m.go:%d\n", g, 1+g%2)
	}
	b.WriteString("g1 fork h1 @w.go:1\ng2 fork h2 @w.go:1\n")
	for round := 0; round < 2; round++ {
		for _, g := range []string{"main", "h1", "h2", "g1", "g2", "g3", "g4", "g5", "g6", "g7", "g8", "g9", "g10", "g11", "g12"} {
			fmt.Fprintf(&b, "%[1]s lock mu @a.go:1\n%[1]s read x @a.go:2\n%[1]s write x @a.go:3\n%[1]s unlock mu @a.go:4\n", g)
			fmt.Fprintf(&b, "%[1]s read y @a.go:5\n%[1]s write y @a.go:6\n%[1]s read x @a.go:8\n", g)
			// Two objects at the same sites: the site key comes back
			// with its representative set.
			fmt.Fprintf(&b, "%[1]s read z%[2]d @a.go:9\n%[1]s write z%[2]d @a.go:10\n", g, round+1)
		}
	}
	tr, err := trace.ReadTrace(strings.NewReader(b.String()), t.Name(), trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pats := allPatterns(t)
	for _, tr := range []*trace.Trace{tr, sameCode(t, 24), sameCode(t, 90)} {
		gr := ptg.Build(tr)
		// polls counts the work bound's polls; the search stops at the
		// limit-th, if limit > 0.
		run := func(limit int) ([]string, Stats, int) {
			var got []string
			polls := 0
			opt := Options{Stop: func() bool {
				polls++
				return limit > 0 && polls >= limit
			}}
			st := Run(gr, pats, opt, func(c Candidate) bool {
				got = append(got, fmt.Sprint(c.Pattern.ID(), c.Events))
				return false
			})
			return got, st, polls
		}
		foldRuns = false
		want, wst, wpolls := run(0)
		foldRuns = true
		got, gst, gpolls := run(0)
		if len(want) == 0 || wst.Folded == 0 {
			t.Fatalf("%d candidates, %d folded: the comparison covers too little", len(want), wst.Folded)
		}
		if !slices.Equal(got, want) {
			t.Errorf("candidates with runs skipped differ:\n got %v\nwant %v", got, want)
		}
		if gst != wst || gpolls != wpolls {
			t.Errorf("stats with runs skipped %+v (%d polls), want %+v (%d polls)", gst, gpolls, wst, wpolls)
		}
		if wpolls > 2 {
			// Cut halfway: the same candidates up to the same cut.
			foldRuns = false
			want, wst, _ := run(wpolls / 2)
			foldRuns = true
			got, gst, _ := run(wpolls / 2)
			if !slices.Equal(got, want) || !gst.Cut || gst.Cut != wst.Cut || gst.CutAt != wst.CutAt {
				t.Errorf("cut at poll %d: with runs skipped %d candidates, cut %v at %s; want %d, cut %v at %s", wpolls/2, len(got), gst.Cut, gst.CutAt, len(want), wst.Cut, wst.CutAt)
			}
		}
		t.Logf("%d candidates, %d folded, %d polls", len(want), gst.Folded, gpolls)
	}
}
