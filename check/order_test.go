package check

import (
	"testing"

	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// TestOrderProof: an order violation (two critical sections in the other
// serial order) is proved only by a panic its replay raised in the
// package's code: not by one in its test, nor by a failed assertion or a
// hang (the other serial order may legitimately fail a test that kept
// the two apart by a sleep), nor by the recorded run's own panic.
func TestOrderProof(t *testing.T) {
	ps, _ := pattern.Builtin("order")
	if len(ps) != 1 || !ps[0].Order {
		t.Fatalf("order set %v: want one order pattern", ps)
	}
	p := ps[0]
	for _, c := range []struct {
		name string
		v    replay.Verdict
		want bool
	}{
		{"nil dereference in package code", replay.Verdict{Verdict: replay.Reproduced, Panicked: true, PanicAt: "/m/x/conn.go:36"}, true},
		{"panic in the test", replay.Verdict{Verdict: replay.Reproduced, Panicked: true, PanicAt: "/m/x/conn_test.go:12"}, false},
		{"panic without a frame of the module", replay.Verdict{Verdict: replay.Reproduced, Panicked: true}, false},
		{"the recorded run's own panic", replay.Verdict{Verdict: replay.Reproduced, Panicked: true, PanicAt: "/m/x/conn.go:36", AsBaseline: true}, false},
		{"failed assertion", replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: conn_test.go:9: got 1"}, false},
		{"hang", replay.Verdict{Verdict: replay.Reproduced, Passed: true, Hang: "g1.1 in chan receive"}, false},
		{"diverged with a package panic", replay.Verdict{Verdict: replay.Diverged, Panicked: true, PanicAt: "/m/x/conn.go:36"}, false},
	} {
		f := Finding{Anomaly: predict.Anomaly{Pattern: p}, Verdict: c.v}
		if got := f.Reproduced(); got != c.want {
			t.Errorf("%s: Reproduced = %v, want %v", c.name, got, c.want)
		}
		if got := f.Effect(); got != c.want {
			t.Errorf("%s: Effect = %v, want %v", c.name, got, c.want)
		}
		if f.WithoutEffect() || f.needsJudging() || f.wantsControl() || f.pairForGrouping() {
			t.Errorf("%s: judged, controlled or grouped like an atomicity violation", c.name)
		}
	}
	// The same package panic proves nothing for other patterns' sake
	// alone: an atomicity violation's stays an ordinary effect.
	av := &pattern.Pattern{Kind: "av", Name: "RWW"}
	f := Finding{Anomaly: predict.Anomaly{Pattern: av}, Verdict: replay.Verdict{Verdict: replay.Reproduced, Panicked: true, PanicAt: "/m/x/conn_test.go:12"}}
	if !f.Reproduced() || !f.Effect() {
		t.Errorf("av with a panic in its test: Reproduced %v, Effect %v; want both", f.Reproduced(), f.Effect())
	}
}
