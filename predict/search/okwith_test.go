package search

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/internal/gen"
	"github.com/pecanvet/pecanvet/predict/ptg"
)

// TestOkWithFast compares the matcher's okWith, which takes the chosen
// events' side of each comparison in advance, with okWithSlow (by POR) on
// random traces: at every call, and in the candidates the search yields.
func TestOkWithFast(t *testing.T) {
	defer func() { fastOkWith, checkOkWith = true, nil }()
	pats := allPatterns(t)
	rng := rand.New(rand.NewPCG(7, 13))
	n := 600
	if testing.Short() {
		n = 100
	}
	calls := 0
	run := func(i int, tr *trace.Trace) {
		gr := ptg.Build(tr)
		var got [2][]Candidate
		for side, fast := range []bool{false, true} {
			fastOkWith = fast
			checkOkWith = nil
			if fast {
				checkOkWith = func(f, s int) {
					calls++
					if f != s {
						t.Fatalf("trace %d: okWith %d, okWithSlow %d\n%s", i, f, s, gen.Describe(tr))
					}
				}
			}
			k := 0
			Run(gr, pats, Options{}, func(c Candidate) bool {
				got[side] = append(got[side], c)
				k++
				return k%3 == 0 // confirm some, so that the search goes on differently
			})
		}
		if !reflect.DeepEqual(got[0], got[1]) {
			t.Fatalf("trace %d: candidates differ with the fast okWith\n%s", i, gen.Describe(tr))
		}
	}
	for i := 0; i < n; i++ {
		run(i, gen.Small(rng, gen.SmallOptions{Goroutines: 2 + i%3, MaxEvents: 14 + i%30}))
	}
	for seed := uint64(1); seed <= 3; seed++ {
		run(-int(seed), gen.Large(gen.LargeOptions{Events: 20000, Goroutines: 4 + int(seed), Locations: 16, Locks: 4, ChannelDensity: 0.02, Seed: seed}))
	}
	if calls < 1000 {
		t.Fatalf("okWith was called %d times: the test compares too little", calls)
	}
	t.Logf("%d okWith calls compared", calls)
}
