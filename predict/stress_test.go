package predict

import (
	"math/rand/v2"
	"testing"

	"github.com/pecanvet/pecanvet/internal/gen"
	"github.com/pecanvet/pecanvet/internal/oracle"
	"github.com/pecanvet/pecanvet/predict/search"
)

// TestAgainstOracleLarger repeats the oracle comparison on longer traces
// with more locks (up to 18 events), where the lock-moving part of
// schedule generation is exercised most.
func TestAgainstOracleLarger(t *testing.T) {
	pats := builtin(t, "all")
	seeds := uint64(8)
	if testing.Short() {
		seeds = 1
	}
	for seed := uint64(0); seed < seeds; seed++ {
		rng := rand.New(rand.NewPCG(seed, 99))
		for i := 0; i < 1000; i++ {
			opt := gen.SmallOptions{Goroutines: 2 + i%2, MaxEvents: 12 + int(seed%3)*3, Locks: 1 + i%3}
			tr := gen.Small(rng, opt)
			m := oracle.New(tr)
			want := m.RealKeys(pats)
			res, _ := Run(tr, pats, Options{Search: search.Options{MaxTries: 1 << 20, PerClass: 1 << 20}})
			got := map[string]bool{}
			for _, a := range res.Anomalies {
				got[a.Key] = true
				if err := m.CheckSchedule(toInts(a.Schedule.Events())); err != nil {
					t.Fatalf("bad schedule %v\n%s", err, gen.Describe(tr))
				}
			}
			for k, w := range want {
				if !got[k] {
					t.Fatalf("seed %d trace %d: missed %s %v (%s) oracle %v\n%s", seed, i, w.Pattern.ID(), w.Inst, k, w.Schedule, gen.Describe(tr))
				}
			}
		}
	}
}
