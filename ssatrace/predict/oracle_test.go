package predict

import (
	"math/rand/v2"
	"testing"

	"github.com/pecanvet/pecanvet/ssatrace/internal/gen"
	"github.com/pecanvet/pecanvet/ssatrace/internal/oracle"
	"github.com/pecanvet/pecanvet/ssatrace/pattern"
	"github.com/pecanvet/pecanvet/ssatrace/search"
)

// TestAgainstOracle checks the engine against a brute-force oracle of the
// hybrid model on random small traces: every anomaly some feasible
// schedule realizes is reported (one per site combination), and every
// reported schedule is feasible and realizes its anomaly (Theorem 1).
func TestAgainstOracle(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	pats := builtin(t, "all")
	rng := rand.New(rand.NewPCG(7, 11))
	var real, reported, notReal, traces int
	for i := 0; i < n; i++ {
		opt := gen.SmallOptions{Goroutines: 2 + i%2}
		tr := gen.Small(rng, opt)
		traces++
		m := oracle.New(tr)
		want := m.RealKeys(pats)
		res, err := Run(tr, pats, Options{Search: search.Options{MaxTries: 1 << 20, PerClass: 1 << 20}})
		if err != nil {
			t.Fatalf("trace %d: %v\n%s", i, err, gen.Describe(tr))
		}
		got := map[string]bool{}
		for _, a := range res.Anomalies {
			got[a.Key] = true
			inst := toInts(a.Events)
			sched := toInts(a.Schedule.Events())
			if !m.IsInstance(a.Pattern, inst) {
				t.Errorf("trace %d: %s %v is not an instance of the pattern\n%s", i, a.Pattern.ID(), inst, gen.Describe(tr))
				continue
			}
			if err := m.CheckSchedule(sched); err != nil {
				t.Errorf("trace %d: %s %v: infeasible schedule %v: %v\n%s", i, a.Pattern.ID(), inst, sched, err, gen.Describe(tr))
				continue
			}
			if !m.Realizes(a.Pattern, inst, sched) {
				t.Errorf("trace %d: %s %v: schedule %v does not realize it\n%s", i, a.Pattern.ID(), inst, sched, gen.Describe(tr))
			}
			if _, ok := want[a.Key]; !ok {
				notReal++
			}
		}
		for k, w := range want {
			real++
			if !got[k] {
				t.Errorf("trace %d: missed real anomaly %s %v (%s), oracle schedule %v\n%s", i, w.Pattern.ID(), w.Inst, k, w.Schedule, gen.Describe(tr))
			}
		}
		reported += len(res.Anomalies)
		if t.Failed() {
			break
		}
	}
	t.Logf("%d traces: %d real anomalies, %d reported, %d reported but not real by the oracle", traces, real, reported, notReal)
}

func toInts(s []int32) []int {
	out := make([]int, len(s))
	for i, e := range s {
		out[i] = int(e)
	}
	return out
}

// TestCustomPatternsAgainstOracle runs user-style patterns through the same
// oracle comparison: three goroutines, two regions of one goroutine, a
// non-adjacent two-event pattern and an adjacent three-event one.
func TestCustomPatternsAgainstOracle(t *testing.T) {
	pats, err := pattern.Parse(`
x/three T=t1-t2-t3 SV=s1-s1-s1 AR=u1-u2-u3 AT=w-r-w
x/tworegions T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u3 AT=r-w-r
x/order T=t1-t2 SV=s1-s2 AR=u1-u2 AT=w-r
x/adj3 adjacent T=t1-t2-t1 SV=s1-s1-s2 AR=u1-u2-u3 AT=w-w-r
x/atom atomic T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-w-w
`, "custom")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 8))
	n := 1500
	if testing.Short() {
		n = 150
	}
	var real int
	for i := 0; i < n; i++ {
		tr := gen.Small(rng, gen.SmallOptions{Goroutines: 2 + i%3})
		m := oracle.New(tr)
		want := m.RealKeys(pats)
		res, err := Run(tr, pats, Options{Search: search.Options{MaxTries: 1 << 20, PerClass: 1 << 20}})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, a := range res.Anomalies {
			got[a.Key] = true
			if err := m.CheckSchedule(toInts(a.Schedule.Events())); err != nil || !m.Realizes(a.Pattern, toInts(a.Events), toInts(a.Schedule.Events())) || !m.IsInstance(a.Pattern, toInts(a.Events)) {
				t.Fatalf("trace %d: bad report %s %v schedule %v (%v)\n%s", i, a.Pattern.ID(), a.Events, a.Schedule.Events(), err, gen.Describe(tr))
			}
		}
		for k, w := range want {
			real++
			if !got[k] {
				t.Fatalf("trace %d: missed %s %v (%s), oracle schedule %v\n%s", i, w.Pattern.ID(), w.Inst, k, w.Schedule, gen.Describe(tr))
			}
		}
	}
	t.Logf("%d traces, %d real anomalies of custom patterns, all reported", n, real)
}
