package check

import (
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/replay"
)

// TestSerialControls: the remote goroutine's steps inside the local
// unit's window move before its first event, then after its last; the
// prefix, the other goroutines' steps and the end stay.
func TestSerialControls(t *testing.T) {
	st := func(g string, site string) trace.Step {
		return trace.Step{G: g, Op: trace.Read, Obj: "x", Site: site, N: 1}
	}
	s := &trace.Schedule{Pattern: "av/RWR", Steps: []trace.Step{
		st("g0", "p"), st("g1", "a"), st("g3", "o"), st("g2", "q"), st("g2", "b"), st("g1", "c"), st("g2", "z"),
	}, Anomaly: []int{1, 4, 5}}
	cs := serialControls(s, []int{1, 2, 1}, []int{1, 2, 1})
	if len(cs) != 2 {
		t.Fatalf("got %d controls, want 2", len(cs))
	}
	order := func(c *trace.Schedule) string {
		var b []string
		for _, x := range c.Steps {
			b = append(b, x.Site)
		}
		return strings.Join(b, " ")
	}
	for i, want := range []struct {
		steps   string
		anomaly []int
	}{
		{"p q b a o c z", []int{3, 2, 5}},
		{"p a o c q b z", []int{1, 5, 3}},
	} {
		if got := order(cs[i]); got != want.steps {
			t.Errorf("control %d: steps %s, want %s", i, got, want.steps)
		}
		for k, j := range cs[i].Anomaly {
			if j != want.anomaly[k] {
				t.Errorf("control %d: anomaly %v, want %v", i, cs[i].Anomaly, want.anomaly)
				break
			}
		}
	}
	// One goroutine's two units: no serial order to move them to.
	s.Steps[4].G = "g1"
	if cs := serialControls(s, []int{1, 1, 1}, []int{1, 2, 1}); cs != nil {
		t.Errorf("same goroutine: got %d controls, want none", len(cs))
	}
}

// TestSameFailure: a control counts only if it ran its whole schedule
// and failed at the same place.
func TestSameFailure(t *testing.T) {
	v := replay.Verdict{Verdict: replay.Reproduced, Consequence: "x_test.go:12: got 1, want 2"}
	for _, tc := range []struct {
		c    replay.Verdict
		want bool
	}{
		{replay.Verdict{Verdict: replay.Reproduced, Consequence: "x_test.go:12: got 0, want 2"}, true},
		{replay.Verdict{Verdict: replay.Reproduced, Passed: true}, false},
		{replay.Verdict{Verdict: replay.Reproduced, Consequence: "x_test.go:15: got 0, want 2"}, false},
		{replay.Verdict{Verdict: replay.Diverged, Consequence: "x_test.go:12: got 0, want 2"}, false},
		{replay.Verdict{Verdict: replay.Reproduced, Interrupted: true, Consequence: "x_test.go:12: got 0, want 2"}, false},
		{replay.Verdict{Verdict: replay.Reproduced, Panicked: true, Consequence: "x_test.go:12: got 0, want 2"}, false},
	} {
		if got := sameFailure(tc.c, v); got != tc.want {
			t.Errorf("sameFailure(%+v) = %v, want %v", tc.c, got, tc.want)
		}
	}
}
