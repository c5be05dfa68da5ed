package check

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/testbin"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// TestChangeShape: the first changed read before the anomaly's first
// step that is not an anomaly step, without goroutine names, occurrence
// counts and object numbers; none when the only changed reads are the
// anomaly's own or come after its first step.
func TestChangeShape(t *testing.T) {
	steps := []trace.Step{
		{G: "g1", Op: trace.Write, Obj: "T.a#1", Site: "a.go:1", N: 1},
		{G: "g2", Op: trace.Read, Obj: "*T.buf#3", Site: "a.go:2", N: 7},
		{G: "g3", Op: trace.Read, Obj: "T.f#2", Site: "a.go:3", N: 2},
		{G: "g2", Op: trace.Read, Obj: "T.x#1", Site: "a.go:4", N: 1},
		{G: "g3", Op: trace.Write, Obj: "T.x#1", Site: "a.go:5", N: 1},
		{G: "g1", Op: trace.Write, Obj: "*T.buf#3", Site: "a.go:6", N: 4},
	}
	step := func(i int) trace.Step { return steps[i] }
	cases := []struct {
		changed []trace.Change
		anomaly []int
		want    string
		at      int
	}{
		{[]trace.Change{{Read: 1, Write: 5, Ahead: true}}, []int{3, 4}, "read *T.buf @a.go:2 < write *T.buf @a.go:6", 1},
		{[]trace.Change{{Read: 2, Write: -1, Ahead: true}, {Read: 1, Write: 0}}, []int{3, 4}, "read T.f @a.go:3 < -", 2},
		{[]trace.Change{{Read: 2, Write: 0}}, []int{3, 4}, "read T.f @a.go:3 > write T.a @a.go:1", 2},
		{[]trace.Change{{Read: 3, Write: 4, Ahead: true}}, []int{3, 4}, "", -1},  // the anomaly's own read
		{[]trace.Change{{Read: 1, Write: 5, Ahead: true}}, []int{4, 1}, "", -1},  // an anomaly step (pattern order)
		{[]trace.Change{{Read: 2, Write: -1, Ahead: true}}, []int{1, 4}, "", -1}, // after the anomaly's first step
		{nil, []int{3, 4}, "", -1},
	}
	for i, c := range cases {
		if got, at := changeShape(c.changed, c.anomaly, step); got != c.want || at != c.at {
			t.Errorf("case %d: %q at %d, want %q at %d", i, got, at, c.want, c.at)
		}
	}
}

// TestReplayQueueChangeAlike: once changeAlikeRuns replays of a trace
// whose schedules first change the same read (each prediction of another
// site combination, with a prefix of its own) failed after it, later
// predictions of the trace needing that change are not replayed; nor
// counted are a shape one of whose replays reproduced, failures before
// the changed read ran, and schedules that change no read.
func TestReplayQueueChangeAlike(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer func() { runReplay = replayRetrying }()
	pats, _ := pattern.Builtin("race")
	// Prediction n of group grp: n steps of g1, then g3's read @r<grp>
	// (changed, ahead of a write not in the schedule, unless grp is
	// "N"), then the anomaly, of a combination of its own.
	inst := func(grp string, n int) prediction {
		s := &trace.Schedule{Pattern: "race/WW", Anomaly: []int{n + 1, n + 2}}
		for k := 0; k < n; k++ {
			s.Steps = append(s.Steps, trace.Step{G: "g1", Op: trace.Write, Obj: "T.a#1", Site: "a.go:1", N: k + 1})
		}
		s.Steps = append(s.Steps,
			trace.Step{G: "g3", Op: trace.Read, Obj: fmt.Sprintf("T.f#%d", n), Site: "r" + grp, N: n},
			trace.Step{G: "g2", Op: trace.Write, Obj: "T.x#1", Site: fmt.Sprintf("x%s%d", grp, n), N: 1},
			trace.Step{G: "g4", Op: trace.Write, Obj: "T.x#1", Site: fmt.Sprintf("y%s%d", grp, n), N: 1})
		if grp != "N" {
			s.Changed = []trace.Change{{Read: n, Write: -1, Ahead: true}}
		}
		key := fmt.Sprintf("%s%d", grp, n)
		p := prediction{s: s, a: predict.Anomaly{Pattern: pats[0], Key: key, Sites: []string{key}}}
		return p
	}
	var preds []prediction
	for _, grp := range []string{"R", "S", "E", "N"} {
		for n := 1; n <= 4; n++ {
			preds = append(preds, inst(grp, n))
		}
	}
	runReplay = func(ctx context.Context, b *testbin.Build, pkg, test string, p prediction, dir string, opt replay.Options) replay.Verdict {
		n := p.len() - 3
		grp := p.a.Key[:1]
		if grp == "S" && n == 1 {
			return replay.Verdict{Verdict: replay.Reproduced, Step: p.len(), Steps: p.len()}
		}
		step := n + 2 // the anomaly's first step, after the changed read
		if grp == "E" {
			step = n // before it
		}
		return replay.Verdict{Verdict: replay.Deadlock, Step: step, Steps: p.len(), Message: fmt.Sprintf("every goroutine waits; step %d cannot come", step),
			Waiting: []string{fmt.Sprintf("g2 waits at g2 write T.x#1 @x%s%d n=1", grp, n)}}
	}
	rep, seen := &Report{}, map[string]bool{}
	q := newReplayQueue(context.Background(), nil, "p", time.Now().Add(time.Hour), Options{}, seen)
	q.add("T", &trace.Trace{}, preds, t.TempDir(), 100, replay.Options{})
	q.wait()
	r := q.finish(seen, rep)[0]
	n := map[string]int{}
	for _, f := range rep.Findings {
		n[f.Anomaly.Key[:1]]++
	}
	if n["R"] != 2 || n["S"] != 4 || n["E"] != 4 || n["N"] != 4 || r.changeAlike != 2 || r.skipped != 0 {
		t.Errorf("replayed R %d, S %d, E %d, N %d (want 2, 4, 4, 4); %d pruned (want 2), %d skipped", n["R"], n["S"], n["E"], n["N"], r.changeAlike, r.skipped)
	}
}
