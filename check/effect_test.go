package check

import (
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// TestWithoutEffect: a reproduced race counts; a reproduced atomicity or
// atomic-set violation counts when its replay fails or panics (otherwise
// than the recorded run did), or when the interleaving changes a value
// its unit uses (Dependence), unless it crosses a re-check under a lock;
// a generated driver's race counts when its type is meant for concurrent
// use, and it shows an effect or holds a lock on one side; its other
// findings need an effect.
func TestWithoutEffect(t *testing.T) {
	race := &pattern.Pattern{Kind: "race", Name: "RW", Adjacent: true}
	av := &pattern.Pattern{Kind: "av", Name: "RWW"}
	mk := func(p *pattern.Pattern, verdict string, passed, panicked bool) Finding {
		return Finding{
			Anomaly: predict.Anomaly{Pattern: p},
			Verdict: replay.Verdict{Verdict: verdict, Passed: passed, Panicked: panicked},
		}
	}
	dep := func(f Finding) Finding {
		f.Dependence = "check-then-act: the value read at a.go:3 decides the write at a.go:5"
		return f
	}
	recheck := func(f Finding) Finding {
		f.Anomaly.Split, f.Anomaly.Recheck = "a.go:4", true
		return f
	}
	drv := func(f Finding) Finding {
		f.Driver = "Publish and Publish"
		return f
	}
	meant := func(f Finding) Finding {
		f.DriverType, f.DriverMeant = "Bus", "it holds a sync.Mutex"
		return f
	}
	locked := func(f Finding) Finding {
		// g2's write holds L; g1's read does not.
		f.Schedule = &trace.Schedule{Steps: []trace.Step{
			{G: "g1", Op: trace.Lock, Obj: "L"}, {G: "g1", Op: trace.Unlock, Obj: "L"},
			{G: "g1", Op: trace.Read, Obj: "x"}, {G: "g2", Op: trace.Lock, Obj: "L"}, {G: "g2", Op: trace.Write, Obj: "x"},
		}, Anomaly: []int{2, 4}}
		return f
	}
	asBaseline := func(f Finding) Finding {
		f.Verdict.AsBaseline = true
		return f
	}
	for i, tc := range []struct {
		f        Finding
		reported bool
		without  bool
	}{
		{mk(race, replay.Reproduced, true, false), true, false},
		{mk(av, replay.Reproduced, true, false), false, true},
		{dep(mk(av, replay.Reproduced, true, false)), true, false},
		{mk(av, replay.Reproduced, false, false), true, false},
		{mk(av, replay.Reproduced, false, true), true, false},
		{mk(av, "diverged", true, false), false, false},
		{recheck(dep(mk(av, replay.Reproduced, true, false))), false, true},
		{recheck(mk(av, replay.Reproduced, false, false)), true, false},
		{drv(mk(race, replay.Reproduced, true, false)), false, true},
		{drv(dep(mk(av, replay.Reproduced, true, false))), false, true},
		{drv(mk(av, replay.Reproduced, false, false)), true, false},
		// A driver's race counts exactly when the type is meant for
		// concurrent use, effect or not.
		{drv(mk(race, replay.Reproduced, true, true)), false, true},
		// and either shows an effect or one of its accesses holds a lock.
		{meant(drv(mk(race, replay.Reproduced, true, false))), false, true},
		{locked(meant(drv(mk(race, replay.Reproduced, true, false)))), true, false},
		{locked(drv(mk(race, replay.Reproduced, true, false))), false, true},
		{meant(drv(mk(race, replay.Reproduced, false, false))), true, false},
		{locked(meant(drv(mk(race, "diverged", true, false)))), false, false},
		{meant(drv(mk(av, replay.Reproduced, true, false))), false, true},
		// Failing the way the recorded run failed, without the
		// schedule's help, is no effect (errgroup's driver calling Go
		// with a nil function panicked in every run).
		{asBaseline(drv(mk(race, replay.Reproduced, false, true))), false, true},
		{asBaseline(mk(av, replay.Reproduced, false, false)), false, true},
		{asBaseline(dep(mk(av, replay.Reproduced, false, false))), true, false},
		{asBaseline(mk(race, replay.Reproduced, false, true)), true, false},
	} {
		rep := &Report{Findings: []Finding{tc.f}}
		if got := len(rep.Reported()) == 1; got != tc.reported {
			t.Errorf("case %d: reported %v, want %v", i, got, tc.reported)
		}
		if got := tc.f.WithoutEffect(); got != tc.without {
			t.Errorf("case %d: WithoutEffect %v, want %v", i, got, tc.without)
		}
	}
}
