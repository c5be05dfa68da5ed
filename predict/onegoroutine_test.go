package predict

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/internal/gen"
	"github.com/pecanvet/pecanvet/predict/search"
)

// TestOneGoroutineNoAnomaly: a trace in which one goroutine does
// everything (the main goroutine only forks it, and may join it) has no
// anomaly of any built-in pattern: check does not read such a recording
// back (check's oneGoroutine), which is sound only while every pattern
// needs events of two goroutines. A pattern of one goroutine (a relock of
// its own mutex, say) would fail this test, and check must then read
// those traces again.
func TestOneGoroutineNoAnomaly(t *testing.T) {
	pats := builtin(t, "all")
	rng := rand.New(rand.NewPCG(31, 7))
	ran, withTwo := 0, 0
	for i := 0; i < 400; i++ {
		tr := gen.Small(rng, gen.SmallOptions{Goroutines: 1, MaxEvents: 8 + i%12, Locks: 1 + i%2})
		if tr == nil || len(tr.Events) == 0 {
			continue
		}
		// The test's goroutine runs main's program; main forks it and,
		// every other trace, joins it.
		var b strings.Builder
		b.WriteString("main fork test @main_test.go:1\ntest begin\n")
		for _, l := range strings.Split(gen.Describe(tr), "\n") {
			if l == "" {
				continue
			}
			if !strings.HasPrefix(l, "main ") {
				t.Fatalf("trace %d: a goroutine other than main: %q", i, l)
			}
			b.WriteString("test " + strings.TrimPrefix(l, "main ") + "\n")
		}
		b.WriteString("test end\n")
		if i%2 == 0 {
			b.WriteString("main join test @main_test.go:2\n")
		}
		one, err := gen.Parse(b.String())
		if err != nil {
			t.Fatalf("trace %d: %v\n%s", i, err, b.String())
		}
		res, err := Run(one, pats, Options{Search: search.Options{MaxTries: 1 << 20, PerClass: 1 << 20}})
		if err != nil {
			t.Fatalf("trace %d: %v\n%s", i, err, b.String())
		}
		ran++
		for _, a := range res.Anomalies {
			t.Errorf("trace %d: %s %v from one goroutine\n%s", i, a.Pattern.ID(), a.Events, b.String())
		}
		// The same program run by a second goroutine after the first:
		// the accesses are there to be reordered, so the patterns find
		// something in many of these (the test's traces are not empty
		// of what they look for).
		twice := b.String() + "main fork other @main_test.go:3\nother begin\n" +
			strings.ReplaceAll(strings.TrimPrefix(b.String(), "main fork test @main_test.go:1\ntest begin\n"), "test ", "other ")
		two, err := gen.Parse(twice)
		if err != nil {
			continue
		}
		if res, err := Run(two, pats, Options{Search: search.Options{MaxTries: 1 << 20, PerClass: 1 << 20}}); err == nil && len(res.Anomalies) > 0 {
			withTwo++
		}
	}
	t.Logf("%d traces, %d with anomalies when run twice", ran, withTwo)
	if ran < 300 || withTwo < ran/4 {
		t.Fatalf("%d traces ran, %d of them with anomalies when a second goroutine runs the same program", ran, withTwo)
	}
}
