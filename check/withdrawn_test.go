package check

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// TestInterruptedFailureWithdrawn: hashicorp/raft v1.8.0's
// TestRaft_ProtocolVersion_Upgrade_1_2, asv-14 (raft.go:1261 W,
// state.go:99 R, state.go:107 W, inmem_store.go:59 R; failureWithdrawn).
// The replicator (g2) read the old lastLogIndex and then asked for no
// entry: it took another path before its last step (interrupted), and the
// program failed; the unheld control passed, so the failure is not the
// interleaving's (Control). Nothing else proves the anomaly: the finding
// is not reproduced, and so neither judged by dependence nor reported.
// A replay that ran the anomaly through keeps its verdict when its
// failure is withdrawn (it then stands or falls by the dependence
// criterion), and an interrupted one whose failure stands is reported for
// it.
func TestInterruptedFailureWithdrawn(t *testing.T) {
	asv := &pattern.Pattern{Kind: "asv", Name: "asv-14", T: []int{1, 2, 1, 2}, SV: []int{1, 2, 2, 1}, AR: []int{1, 2, 1, 2},
		AT: []pattern.Access{pattern.W, pattern.R, pattern.W, pattern.R}}
	s := &trace.Schedule{Pattern: "asv/asv-14", Steps: []trace.Step{
		{G: "g1", Op: trace.Write, Obj: "Time.wall#30", Site: "raft.go:1261:16", N: 1},
		{G: "g2", Op: trace.Read, Obj: "raftState.lastLogIndex#2", Site: "state.go:99:12", N: 1},
		{G: "g1", Op: trace.Write, Obj: "raftState.lastLogIndex#2", Site: "state.go:107:4", N: 1},
		{G: "g2", Op: trace.Read, Obj: "Time.wall#30", Site: "inmem_store.go:59:9", N: 1},
	}, Anomaly: []int{0, 1, 2, 3}}
	const cons = "test fails: testing.go:609: at least one peer has the wrong notion of leader"
	const unheld = "the same schedule passes when the goroutines it names no step of run free instead of waiting for its end: the failure follows their hold, not the interleaving"
	interrupted := replay.Verdict{Verdict: replay.Reproduced, Interrupted: true, Goroutine: "g2", Step: 4, Consequence: cons,
		Message: "after the interleaving, goroutine g2 took another path: step 4 expects g2 read @inmem_store.go:59:9 n=1, it did region-end @replication.go:614:16 n=1"}
	explored := replay.Verdict{Verdict: replay.Reproduced, Explored: true, Goroutine: "g2", Step: 4, Changed: 2, Consequence: cons}
	through := replay.Verdict{Verdict: replay.Reproduced, Step: 4, Consequence: cons}
	for _, tc := range []struct {
		name    string
		v       replay.Verdict
		control string
		want    bool // still reproduced
	}{
		{"interrupted, failure withdrawn", interrupted, unheld, false},
		{"explored, failure withdrawn", explored, unheld, false},
		{"interrupted, failure alone withdrawn", interrupted, aloneRepeat, false},
		{"interrupted, failure stands", interrupted, "", true},
		{"ran through, failure withdrawn", through, unheld, true},
	} {
		q := newReplayQueue(context.Background(), nil, "github.com/hashicorp/raft", time.Time{}, Options{NoControls: true}, map[string]bool{})
		g := &qGroup{test: "TestRaft_ProtocolVersion_Upgrade_1_2", dir: t.TempDir(), n: 1}
		it := &qItem{g: g, p: prediction{a: predict.Anomaly{Pattern: asv, Key: "asv-14 raft.go:1261"}, s: s}, s: s, state: pDone, v: tc.v, control: tc.control}
		q.items, q.groups = []*qItem{it}, []*qGroup{g}
		rep := &Report{}
		q.finish(map[string]bool{}, rep)
		if len(rep.Findings) != 1 {
			t.Fatalf("%s: %d findings, want 1", tc.name, len(rep.Findings))
		}
		f := rep.Findings[0]
		if got := f.Reproduced(); got != tc.want {
			t.Errorf("%s: reproduced %v (verdict %s: %s), want %v", tc.name, got, f.Verdict.Verdict, f.Verdict.Message, tc.want)
		}
		if !tc.want && (f.needsJudging() || !strings.Contains(f.Verdict.Message, tc.control)) {
			t.Errorf("%s: needs judging %v, message %q: want no judging and the control's reason", tc.name, f.needsJudging(), f.Verdict.Message)
		}
		if tc.want && tc.control == "" && !f.Effect() {
			t.Errorf("%s: no effect, want the failure's", tc.name)
		}
	}
}
