package predict

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/internal/gen"
)

// TestDeadline: on a trace that takes minutes to search in full (256
// goroutines running the same code on two locations), a prediction with a
// deadline returns soon after it, with what it found and a note of the cut.
func TestDeadline(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 10^5-event trace")
	}
	tr := gen.Large(gen.LargeOptions{Events: 100000, Goroutines: 256, Locations: 2, Locks: 8, ChannelDensity: 0.01, Seed: 1})
	pats := builtin(t, "all")
	t0 := time.Now()
	budget := 700 * time.Millisecond
	res, err := Run(tr, pats, Options{Deadline: t0.Add(budget)})
	took := time.Since(t0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Cut == "" {
		t.Fatalf("no cut reported after %v (%d anomalies); the full search takes minutes", took, len(res.Anomalies))
	}
	// Slack for one schedule generation and a loaded machine.
	if took > budget+5*time.Second {
		t.Errorf("prediction with a %v deadline took %v", budget, took)
	}
	t.Logf("%v: %d anomalies, %s", took, len(res.Anomalies), res.Cut)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err = Run(tr, pats, Options{Context: ctx})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Cut, "nothing searched") || len(res.Anomalies) != 0 {
		t.Errorf("cancelled context: cut %q, %d anomalies", res.Cut, len(res.Anomalies))
	}
}

// TestHugeRegion: two goroutines each run one atomic region of 6,000
// accesses to distinct objects (a call looping over a huge slice: conc's
// iter tests). Its access sequences for the atomic-set patterns number in
// the billions; their enumeration took one trace's prediction 6 minutes
// past its share of the budget. Such a region is left out of the region
// index, with a warning, and the races are still found.
func TestHugeRegion(t *testing.T) {
	if testing.Short() {
		t.Skip("a slow trace")
	}
	var b strings.Builder
	b.WriteString("# pecanvet trace v1\ng1 fork g2 @t.go:1:1\ng1 fork g3 @t.go:2:1\ng2 begin\ng3 begin\n")
	for _, g := range []string{"g2", "g3"} {
		fmt.Fprintf(&b, "%s region-begin Huge.Loop @t.go:5:1\n", g)
		for i := 0; i < 3000; i++ {
			fmt.Fprintf(&b, "%s write o%d @t.go:%d:2\n%s read o%d @t.go:%d:9\n", g, i, 10+i, g, i, 10+i)
		}
		fmt.Fprintf(&b, "%s region-end Huge.Loop @t.go:6:1\n", g)
	}
	tr, err := trace.ReadTrace(strings.NewReader(b.String()), "huge", trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	res, err := Run(tr, builtin(t, "all"), Options{})
	took := time.Since(t0)
	if err != nil {
		t.Fatal(err)
	}
	races := 0
	for _, a := range res.Anomalies {
		if a.Pattern.Adjacent {
			races++
		}
	}
	if races != 6000 || !strings.Contains(strings.Join(res.Warnings, "\n"), "not all indexed") {
		t.Errorf("%d races (want 6000), warnings %q", races, res.Warnings)
	}
	if took > 30*time.Second {
		t.Errorf("prediction took %v", took)
	}
	t.Logf("%v: %d anomalies", took, len(res.Anomalies))
}

// TestDeadlineRegionIndex: the deadline reaches the indexing of the
// atomic regions' access sequences: 40 regions of 800 distinct accesses
// each (under maxRegionItems) take many seconds to index for the
// atomic-set patterns, and a prediction with a 500 ms deadline returns
// soon after it, cut while indexing.
func TestDeadlineRegionIndex(t *testing.T) {
	if testing.Short() {
		t.Skip("a slow trace")
	}
	tr := regionsTrace(t)
	t0 := time.Now()
	budget := 500 * time.Millisecond
	res, err := Run(tr, builtin(t, "asv"), Options{Deadline: t0.Add(budget)})
	took := time.Since(t0)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Cut, "while indexing") {
		t.Fatalf("after %v: cut %q, want one while indexing", took, res.Cut)
	}
	if took > budget+5*time.Second {
		t.Errorf("prediction with a %v deadline took %v", budget, took)
	}
	t.Logf("%v: %s", took, res.Cut)
}

// TestRacesBeforeRegionIndex: the work bound is spent on races first.
// On the trace of TestDeadlineRegionIndex, whose atomic regions take far
// more than the bound to index, a prediction of all patterns used to
// index first and stop there ("no pattern searched"): not one of its
// hundreds of races was searched, where -race would report them.
func TestRacesBeforeRegionIndex(t *testing.T) {
	tr := regionsTrace(t)
	res, err := Run(tr, builtin(t, "all"), Options{MaxWork: 400})
	if err != nil {
		t.Fatal(err)
	}
	races := 0
	for _, a := range res.Anomalies {
		if a.Pattern.Adjacent {
			races++
		}
	}
	if races == 0 || !res.WorkCut || strings.Contains(res.Cut, "no pattern searched") {
		t.Errorf("%d races found; cut %q (work cut %v); want races found before the bound", races, res.Cut, res.WorkCut)
	}
	t.Logf("%d races, cut %q", races, res.Cut)
}

// regionsTrace: two goroutines each run 20 atomic regions of 800
// distinct accesses to 400 shared objects, none ordered: hundreds of
// races, and an index of the regions' access sequences that takes many
// seconds.
func regionsTrace(t *testing.T) *trace.Trace {
	var b strings.Builder
	b.WriteString("# pecanvet trace v1\ng1 fork g2 @t.go:1:1\ng1 fork g3 @t.go:2:1\ng2 begin\ng3 begin\n")
	for _, g := range []string{"g2", "g3"} {
		for r := 0; r < 20; r++ {
			fmt.Fprintf(&b, "%s region-begin Obj.Method @t.go:5:1\n", g)
			for i := 0; i < 400; i++ {
				fmt.Fprintf(&b, "%s write o%d @t.go:%d:2\n%s read o%d @t.go:%d:9\n", g, i, 10+i, g, i, 10+i)
			}
			fmt.Fprintf(&b, "%s region-end Obj.Method @t.go:6:1\n", g)
		}
	}
	tr, err := trace.ReadTrace(strings.NewReader(b.String()), "regions", trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
