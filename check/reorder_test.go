package check

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/testbin"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// reorderSched is a schedule of step texts ("g1 write x#1 @a n=1") with
// anomaly steps at, of pattern pat.
func reorderSched(t *testing.T, pat string, at []int, steps ...string) *trace.Schedule {
	t.Helper()
	text := trace.ScheduleHeader + "\nanomaly " + pat
	for _, i := range at {
		text += fmt.Sprint(" ", i+1)
	}
	text += "\n" + strings.Join(steps, "\n") + "\n"
	s, err := trace.ParseSchedule(strings.NewReader(text), "s")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestReplayQueueReorderedFailure: progressbar's Add64_Finish driver
// replayed 100 schedules that all diverged at one step, each after its
// own order of the steps before it (x/sync's TestGoexitDo: 17 of 27). A
// schedule whose first k steps are the failed one's with independent
// steps in another order, with the same anomaly steps among them and
// the same next step per goroutine, diverges alike: it is pruned as
// inferred. Not: another order of two dependent steps, another next
// step, a race (a detour may bring it back), a failure where no other
// goroutine's anomaly step is still to come (the failed goroutine might
// be interrupted instead), and a failure after an anomaly read while the
// test may still explore.
func TestReplayQueueReorderedFailure(t *testing.T) {
	avs, _ := pattern.Builtin("av")
	races, _ := pattern.Builtin("race")
	const (
		w1  = "g1 write x#1 @a n=1"
		r3  = "g3 read y#1 @b n=1"
		r2  = "g2 read x#1 @c n=1"
		w2  = "g2 write z#1 @d n=1" // the failed step
		n3  = "g3 read w#1 @e n=1"
		o3  = "g3 read v#1 @q n=1"
		w1b = "g1 write x#1 @f n=1"
	)
	type tc struct {
		name   string
		race   bool
		at     []int
		steps  []string
		pruned bool
	}
	for _, c := range []struct {
		name  string
		at    []int
		cases []tc
	}{
		{"anomaly writes", []int{0, 3, 5}, []tc{
			{name: "failed", steps: []string{w1, r3, r2, w2, n3, w1b}},
			{name: "independent swapped", steps: []string{w1, r2, r3, w2, n3, w1b}, pruned: true},
			{name: "dependent swapped", steps: []string{r2, w1, r3, w2, n3, w1b}},
			{name: "other next step", steps: []string{w1, r2, r3, w2, o3, w1b}},
			{name: "race", race: true, steps: []string{w1, r2, r3, w2, n3, w1b}},
		}},
		{"no other goroutine's anomaly step after", []int{0, 3}, []tc{
			{name: "failed", steps: []string{w1, r3, r2, w2, n3, w1b}},
			{name: "independent swapped", steps: []string{w1, r2, r3, w2, n3, w1b}},
		}},
		{"anomaly read", []int{0, 2, 5}, []tc{
			{name: "failed", steps: []string{w1, r3, r2, w2, n3, w1b}},
			{name: "independent swapped", steps: []string{w1, r2, r3, w2, n3, w1b}},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var preds []prediction
			idx := map[string]int{}
			for i, x := range c.cases {
				pat := avs[0]
				if x.race {
					pat = races[0]
				}
				s := reorderSched(t, pat.Kind+"/"+pat.Name, c.at, x.steps...)
				p := predOf(t, s, i%2 == 1)
				p.a = predict.Anomaly{Pattern: pat, Key: fmt.Sprint(i), Sites: []string{fmt.Sprint(i)}}
				preds = append(preds, p)
				idx[predID(p)] = i
			}
			runReplay = func(ctx context.Context, b *testbin.Build, pkg, test string, p prediction, dir string, opt replay.Options) replay.Verdict {
				return replay.Verdict{Verdict: replay.Diverged, Step: 4, Goroutine: "g2", Expected: "g2 write @d n=1", Message: "took another path"}
			}
			defer func() { runReplay = replayRetrying }()
			rep := &Report{}
			replayBatch(context.Background(), nil, "p", "T", &trace.Trace{}, preds, t.TempDir(),
				time.Now().Add(time.Hour), Options{MaxReplays: 100}, map[string]bool{}, rep)
			pruned := map[int]bool{}
			for _, f := range rep.Findings {
				if f.Inferred {
					pruned[idx[f.pred]] = true
					if !strings.HasPrefix(f.Verdict.Message, "prefix equivalent (the same steps, independent ones in another order) as replay 1, which failed at step 4") {
						t.Errorf("inferred verdict %q", f.Verdict.Message)
					}
				}
			}
			for i, x := range c.cases {
				if pruned[i] != x.pruned {
					t.Errorf("%s: pruned %v, want %v", x.name, pruned[i], x.pruned)
				}
			}
		})
	}
}
