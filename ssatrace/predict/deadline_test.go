package predict

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/ssatrace/internal/gen"
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
