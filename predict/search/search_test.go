package search

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/internal/gen"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict/ptg"
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

// TestPrefer: with Options.Prefer the search proposes the same instances
// as without it, each once, and every one of a preferred site combination
// before any other; a Stop during the preferred part says so. Random
// small traces, a random preference by site.
func TestPrefer(t *testing.T) {
	pats := allPatterns(t)
	rng := rand.New(rand.NewPCG(9, 4))
	var preferred, others int
	for i := 0; i < 400; i++ {
		tr := gen.Small(rng, gen.SmallOptions{Goroutines: 2 + i%3})
		gr := ptg.Build(tr)
		liked := map[int32]bool{}
		for s := range tr.Sites {
			liked[int32(s)] = rng.IntN(3) == 0
		}
		prefer := func(sites []int32) bool {
			for _, s := range sites {
				if liked[s] {
					return true
				}
			}
			return false
		}
		inst := func(c Candidate) string { return fmt.Sprint(c.Pattern.ID(), c.Events) }
		var plain []string
		Run(gr, pats, Options{}, func(c Candidate) bool { plain = append(plain, inst(c)); return false })
		var steered []string
		inOthers := false
		Run(gr, pats, Options{Prefer: prefer}, func(c Candidate) bool {
			sites := make([]int32, len(c.Events))
			for k, e := range c.Events {
				sites[k] = gr.Ev(e).Site
			}
			if p := prefer(sites); p && inOthers {
				t.Fatalf("trace %d: preferred %s proposed after another combination's instance", i, inst(c))
			} else if p {
				preferred++
			} else {
				inOthers = true
				others++
			}
			steered = append(steered, inst(c))
			return false
		})
		slices.Sort(plain)
		slices.Sort(steered)
		if !slices.Equal(plain, steered) {
			t.Fatalf("trace %d: instances proposed differ with Prefer:\n%v\nwithout:\n%v", i, steered, plain)
		}
	}
	if preferred == 0 || others == 0 {
		t.Fatalf("preferred %d, others %d: the test exercises nothing", preferred, others)
	}
	gr := ptg.Build(sameCode(t, 4))
	st := Run(gr, pats, Options{Prefer: func([]int32) bool { return true }, Stop: func() bool { return true }}, func(Candidate) bool { return false })
	if !st.Cut || !st.CutInPreferred {
		t.Errorf("Stop at once with Prefer: Cut=%v CutInPreferred=%v, want both", st.Cut, st.CutInPreferred)
	}
}

// TestOneCore: with two cores Run builds the one-event classes beside
// the region index; on one it builds them when a pattern first needs
// them. The candidates proposed, and their order, are the same, with the
// built-in patterns (shared one-event groups) and with a pattern whose
// one-event group needs the classes of all objects.
func TestOneCore(t *testing.T) {
	more, err := pattern.Parse(`
x/lone atomic T=t1-t2-t1 SV=s1-s2-s1 AR=u1-u2-u1 AT=r-w-w
`, "test")
	if err != nil {
		t.Fatal(err)
	}
	sets := [][]*pattern.Pattern{allPatterns(t), append(allPatterns(t), more...)}
	rng := rand.New(rand.NewPCG(5, 8))
	run := func(gr *ptg.Graph, pats []*pattern.Pattern, procs int) []string {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var out []string
		n := 0
		Run(gr, pats, Options{}, func(c Candidate) bool {
			out = append(out, fmt.Sprint(c.Pattern.ID(), c.Events))
			n++
			return n%3 == 0
		})
		return out
	}
	for i := 0; i < 300; i++ {
		var tr *trace.Trace
		if i%50 == 49 {
			tr = gen.Large(gen.LargeOptions{Events: 5000, Goroutines: 2 + i%7, Locations: 8 + i%20, Locks: 1 + i%4, ChannelDensity: 0.02, Seed: uint64(i)})
		} else {
			tr = gen.Small(rng, gen.SmallOptions{Goroutines: 2 + i%3, MaxEvents: 10 + i%40})
		}
		gr := ptg.Build(tr)
		for k, pats := range sets {
			one, two := run(gr, pats, 1), run(gr, pats, 2)
			if !slices.Equal(one, two) {
				t.Fatalf("trace %d, set %d: candidates on two cores\n%v\non one\n%v", i, k, two, one)
			}
		}
	}
}

// TestSharedOnlyIndexSameCandidates: indexing the groups of shared
// variables from the shared objects' accesses alone proposes the same
// candidates, in the same order, as indexing every access, on traces where
// goroutines also touch objects of their own.
func TestSharedOnlyIndexSameCandidates(t *testing.T) {
	defer func(v bool) { indexSharedOnly = v }(indexSharedOnly)
	pats := groupPatterns(t)
	run := func(tr *trace.Trace, sharedOnly bool) ([]string, int) {
		indexSharedOnly = sharedOnly
		var got []string
		st := Run(ptg.Build(tr), pats, Options{}, func(c Candidate) bool {
			got = append(got, fmt.Sprint(c.Pattern.ID(), c.Events))
			return len(got)%3 == 0 // confirm some, so that others are tried again
		})
		return got, st.Combinations
	}
	rng := rand.New(rand.NewPCG(3, 5))
	var trs []*trace.Trace
	for i := 0; i < 200; i++ {
		trs = append(trs, gen.Small(rng, gen.SmallOptions{Goroutines: 2 + i%3, MaxEvents: 14 + i%40}))
	}
	for seed := uint64(1); seed <= 3; seed++ {
		// Many locations for few goroutines: most objects are one
		// goroutine's.
		trs = append(trs, gen.Large(gen.LargeOptions{Events: 20000, Goroutines: 3, Locations: 2000, Locks: 2, ChannelDensity: 0.01, Seed: seed}))
	}
	fewer, total := 0, 0
	for i, tr := range trs {
		want, cAll := run(tr, false)
		got, cShared := run(tr, true)
		if !slices.Equal(got, want) {
			t.Fatalf("trace %d: candidates with the shared-only index\n%v\nwant\n%v", i, got, want)
		}
		total += len(want)
		if cShared < cAll {
			fewer++
		}
	}
	if total == 0 || fewer == 0 {
		t.Fatalf("%d candidates, %d traces with fewer combinations examined: the test shows nothing", total, fewer)
	}
}

// TestSameShapeOnce: asv/asv-1..5 have av's five shapes. Each instance is
// proposed once, under the first pattern of its shape in the set (av), even
// when the caller confirms nothing and the search goes on past the first
// instance of a key (check does: a finding's kind then depended on which
// of the twins' replays reproduced); asv alone still proposes them.
func TestSameShapeOnce(t *testing.T) {
	src := trace.TextHeader + `
T1 fork T2 @m.go:1
T1 region-begin Cache.Write @c.go:1
T1 atomic-load status @c.go:2
T2 begin
T2 region-begin Cache.Maintain @c.go:10
T2 atomic-store status @c.go:11
T2 atomic-store status @c.go:12
T2 region-end Cache.Maintain @c.go:13
T1 atomic-rmw status @c.go:3
T1 region-end Cache.Write @c.go:4
`
	tr, err := trace.ReadTrace(strings.NewReader(src), t.Name(), trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	gr := ptg.Build(tr)
	run := func(pats []*pattern.Pattern) (kinds map[string]int, proposed map[string]int) {
		kinds, proposed = map[string]int{}, map[string]int{}
		Run(gr, pats, Options{}, func(c Candidate) bool {
			if !c.Pattern.Atomic || c.Pattern.Len() != 3 {
				return false
			}
			kinds[c.Pattern.Kind]++
			proposed[fmt.Sprint(c.Key, c.Events)]++
			return false
		})
		return kinds, proposed
	}
	kinds, proposed := run(allPatterns(t))
	if kinds["av"] == 0 || kinds["asv"] != 0 {
		t.Errorf("three-event candidates by kind with all: %v; want av's only", kinds)
	}
	for k, n := range proposed {
		if n > 1 {
			t.Errorf("%s proposed %d times", k, n)
		}
	}
	asv, _ := pattern.Builtin("asv")
	if kinds, _ := run(asv); kinds["asv"] == 0 {
		t.Errorf("asv alone proposed no three-event candidate")
	}
}
