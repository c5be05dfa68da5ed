package predict

import (
	"bytes"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/internal/gen"
	"github.com/pecanvet/pecanvet/predict/ptg"
	"github.com/pecanvet/pecanvet/predict/schedule"
)

func decoderOf(t *testing.T, tr *trace.Trace) trace.Decoder {
	t.Helper()
	var b bytes.Buffer
	if err := trace.WriteBinary(&b, tr); err != nil {
		t.Fatal(err)
	}
	d, err := trace.NewDecoder(&b, t.Name())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestWindowedSchedulesFeasible: every anomaly found by windowed analysis
// has a schedule of the whole trace that the checker accepts (program
// order, happens-before, locks, WaitGroups — state carried into a window
// by its preamble), on the events and sites the full analysis names.
func TestWindowedSchedulesFeasible(t *testing.T) {
	pats := builtin(t, "all")
	for seed := uint64(1); seed <= 3; seed++ {
		tr := gen.Large(gen.LargeOptions{Events: 30000, Goroutines: 6, Locations: 24, Locks: 4, ChannelDensity: 0.02, Seed: seed})
		full, err := Run(tr, pats, Options{})
		if err != nil {
			t.Fatal(err)
		}
		gr := ptg.Build(tr)
		res, err := RunStream(decoderOf(t, tr), pats, Options{}, WindowOptions{Size: 4000, Overlap: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if res.Windows != 10 || res.Stats.Events != len(tr.Events) || res.Cut != "" {
			t.Fatalf("windows %d events %d cut %q; want 10 windows over %d events, no cut", res.Windows, res.Stats.Events, res.Cut, len(tr.Events))
		}
		keys := map[string]bool{}
		late := 0
		for _, a := range res.Anomalies {
			if keys[a.Key] {
				t.Errorf("%s reported twice", a.Key)
			}
			keys[a.Key] = true
			if err := schedule.Check(gr, a.Schedule, a.Events, a.Pattern.Adjacent); err != nil {
				t.Fatalf("seed %d: %s %v: schedule of the whole trace rejected: %v", seed, a.Key, a.Events, err)
			}
			for i, e := range a.Events {
				if s := tr.Site(tr.Events[e]); s != a.Sites[i] {
					t.Fatalf("%s: event %d has site %s, anomaly says %s", a.Key, e, s, a.Sites[i])
				}
			}
			if a.Events[0] >= 4000 {
				late++
			}
		}
		fullKeys := map[string]bool{}
		for _, a := range full.Anomalies {
			fullKeys[a.Key] = true
		}
		common := 0
		for k := range keys {
			if fullKeys[k] {
				common++
			}
		}
		t.Logf("seed %d: windowed %d anomalies (%d after the first window), full %d, common %d", seed, len(res.Anomalies), late, len(full.Anomalies), common)
		if late == 0 {
			t.Errorf("seed %d: nothing found after the first window", seed)
		}
		if 2*common < len(fullKeys) {
			t.Errorf("seed %d: windowed analysis found %d of the full analysis's %d site combinations", seed, common, len(fullKeys))
		}
	}
}

// TestStreamWhole: a trace that fits in one window is analyzed as by Run.
func TestStreamWhole(t *testing.T) {
	pats := builtin(t, "all")
	tr := gen.Large(gen.LargeOptions{Events: 5000, Seed: 7, ChannelDensity: 0.01})
	full, err := Run(tr, pats, Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := RunStream(decoderOf(t, tr), pats, Options{}, WindowOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Windows != 1 || len(res.Anomalies) != len(full.Anomalies) {
		t.Fatalf("%d windows, %d anomalies; want 1 window and Run's %d", res.Windows, len(res.Anomalies), len(full.Anomalies))
	}
	// The binary round trip renumbers names, so compare the sets of keys.
	keys := map[string]bool{}
	for _, a := range full.Anomalies {
		keys[a.Key] = true
	}
	for _, a := range res.Anomalies {
		if !keys[a.Key] {
			t.Fatalf("%s found by RunStream, not by Run", a.Key)
		}
	}
}
