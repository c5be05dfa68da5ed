package check

import (
	"testing"

	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// TestWithoutEffect: a reproduced violation across a unit's deliberate
// split counts only when its replay fails or panics; races and other
// violations count whenever reproduced.
func TestWithoutEffect(t *testing.T) {
	mk := func(split string, verdict string, passed, panicked bool) Finding {
		return Finding{
			Anomaly: predict.Anomaly{Split: split},
			Verdict: replay.Verdict{Verdict: verdict, Passed: passed, Panicked: panicked},
		}
	}
	// A generated driver's finding, of any kind, needs an effect too.
	drv := func(verdict string, passed, panicked bool) Finding {
		f := mk("", verdict, passed, panicked)
		f.Driver = "Publish and Publish"
		return f
	}
	asBaseline := func(f Finding) Finding {
		f.Verdict.AsBaseline = true
		return f
	}
	for _, tc := range []struct {
		f        Finding
		reported bool
		without  bool
	}{
		{mk("", replay.Reproduced, true, false), true, false},
		{mk("a.go:3", replay.Reproduced, true, false), false, true},
		{mk("a.go:3", replay.Reproduced, false, false), true, false},
		{mk("a.go:3", replay.Reproduced, false, true), true, false},
		{mk("a.go:3", "diverged", true, false), false, false},
		{drv(replay.Reproduced, true, false), false, true},
		{drv(replay.Reproduced, false, false), true, false},
		{drv(replay.Reproduced, true, true), true, false},
		// Failing the way the recorded run failed, without the
		// schedule's help, is no effect (errgroup's driver calling Go
		// with a nil function panicked in every run).
		{asBaseline(drv(replay.Reproduced, false, true)), false, true},
		{asBaseline(mk("a.go:3", replay.Reproduced, false, false)), false, true},
		{asBaseline(mk("", replay.Reproduced, false, true)), true, false},
	} {
		rep := &Report{Findings: []Finding{tc.f}}
		if got := len(rep.Reported()) == 1; got != tc.reported {
			t.Errorf("%+v: reported %v, want %v", tc.f.Verdict, got, tc.reported)
		}
		if got := tc.f.WithoutEffect(); got != tc.without {
			t.Errorf("%+v split %q: WithoutEffect %v, want %v", tc.f.Verdict, tc.f.Anomaly.Split, got, tc.without)
		}
	}
}
