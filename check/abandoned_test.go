package check

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/replay"
	"github.com/pecanvet/pecanvet/static/depend"
)

// TestAbandoned: a lost write whose remote swap was given up (a failed
// CAS, then the variable read again, nothing written between) loses
// nothing; one whose goroutine went on from it does.
func TestAbandoned(t *testing.T) {
	cas := map[string]bool{"w": true, "cy": true, "cy2": true}
	isCAS := func(site string) bool { return cas[site] }
	step := func(g string, op trace.Op, obj, site string) trace.Step {
		return trace.Step{G: g, Op: op, Obj: obj, Site: site, N: 1}
	}
	// The unit (g1) reads X, CASes Y odd, stores X; g2 swaps X between,
	// then its CAS of Y meets the odd value.
	base := []trace.Step{
		step("g1", trace.AtomicLoad, "X", "a"),
		step("g1", trace.AtomicRMW, "Y", "cy"),
		step("g2", trace.AtomicLoad, "X", "a"),
		step("g2", trace.AtomicRMW, "X", "w"),
		step("g2", trace.AtomicLoad, "Y", "cy2"),
		step("g1", trace.AtomicStore, "X", "b"),
		step("g2", trace.AtomicLoad, "X", "a"),
	}
	evs := []depend.Event{
		{Thread: 1, Unit: 1, Read: true, Site: "a"},
		{Thread: 2, Unit: 2, Read: true, Write: true, Site: "w"},
		{Thread: 1, Unit: 1, Write: true, Site: "b"},
	}
	lost := depend.Verdict{Holds: true, Kind: "lost write", Pair: [2]string{"a", "b"}}
	with := func(i int, st trace.Step) []trace.Step {
		out := append([]trace.Step(nil), base...)
		out[i] = st
		return out
	}
	for _, tc := range []struct {
		name  string
		steps []trace.Step
		v     depend.Verdict
		rv    replay.Verdict
		want  bool
	}{
		{"given up: its CAS of Y failed, then it read X again", base, lost, replay.Verdict{}, true},
		{"its CAS of Y swapped: it went on", with(4, step("g2", trace.AtomicRMW, "Y", "cy2")), lost, replay.Verdict{}, false},
		{"no CAS failed before it read X again", with(4, step("g2", trace.AtomicLoad, "Z", "z")), lost, replay.Verdict{}, false},
		{"it wrote something else first", with(4, step("g2", trace.Write, "Z", "z")), lost, replay.Verdict{}, false},
		{"the replay went free before the read", base, lost, replay.Verdict{Explored: true, Step: 6}, false},
		{"the lost write is a store, not a swap", with(3, step("g2", trace.AtomicRMW, "X", "add")), lost, replay.Verdict{}, false},
		{"another kind of dependence", base, depend.Verdict{Holds: true, Kind: "check-then-act", Pair: [2]string{"a", "b"}}, replay.Verdict{}, false},
	} {
		s := &trace.Schedule{Steps: tc.steps, Anomaly: []int{0, 3, 5}}
		if got := abandoned(s, evs, tc.v, tc.rv, isCAS); got != tc.want {
			t.Errorf("%s: abandoned = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestAbandonedReplayTrace: the replay's own trace says what the remote
// goroutine did after its swap, beyond the schedule (whose steps are the
// recorded run's: there its CAS of Y swapped).
func TestAbandonedReplayTrace(t *testing.T) {
	cas := map[string]bool{"q.go:2": true, "q.go:3": true, "q.go:4": true}
	isCAS := func(site string) bool { return cas[site] }
	s := &trace.Schedule{Steps: []trace.Step{
		{G: "g1", Op: trace.AtomicLoad, Obj: "X#1", Site: "q.go:1", N: 1},
		{G: "g2", Op: trace.AtomicRMW, Obj: "X#1", Site: "q.go:2", N: 1},
		{G: "g2", Op: trace.AtomicRMW, Obj: "Y#1", Site: "q.go:4", N: 1},
		{G: "g1", Op: trace.AtomicStore, Obj: "X#1", Site: "q.go:5", N: 1},
	}, Anomaly: []int{0, 1, 3}}
	evs := []depend.Event{
		{Thread: 1, Unit: 1, Read: true, Site: "q.go:1"},
		{Thread: 2, Unit: 2, Read: true, Write: true, Site: "q.go:2"},
		{Thread: 1, Unit: 1, Write: true, Site: "q.go:5"},
	}
	lost := depend.Verdict{Holds: true, Kind: "lost write", Pair: [2]string{"q.go:1", "q.go:5"}}
	if abandoned(s, evs, lost, replay.Verdict{}, isCAS) {
		t.Errorf("schedule alone: its CAS of Y swapped, yet abandoned")
	}
	for _, tc := range []struct {
		name, replayed string
		want           bool
	}{
		{"the replay's CAS of Y failed, then it read X", "g1 atomic-load X#1 @q.go:1\ng2 atomic-rmw X#1 @q.go:2\ng1 atomic-rmw Y#1 @q.go:3\ng2 atomic-load Y#1 @q.go:4\ng1 atomic-store X#1 @q.go:5\ng2 atomic-load X#1 @q.go:1\n", true},
		{"the replay's CAS of Y swapped", "g1 atomic-load X#1 @q.go:1\ng2 atomic-rmw X#1 @q.go:2\ng2 atomic-rmw Y#1 @q.go:4\ng1 atomic-store X#1 @q.go:5\ng2 atomic-load X#1 @q.go:1\n", false},
	} {
		path := filepath.Join(t.TempDir(), "replay.trace")
		if err := os.WriteFile(path, []byte("# pecanvet trace v1\n"+tc.replayed), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := abandoned(s, evs, lost, replay.Verdict{Trace: path}, isCAS); got != tc.want {
			t.Errorf("%s: abandoned = %v, want %v", tc.name, got, tc.want)
		}
	}
}
