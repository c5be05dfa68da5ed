package check

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/testbin"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/replay"
)

// TestExploreBound: of a test's replays, at most maxExplorations may
// explore; a replay allowed to explore that did not gives its permit
// back, and another test has permits of its own. The replays that
// explore are those the sequential order lets explore, however many run
// at once: a replay waits for a permit still held by one that may give
// it back (permitPending).
func TestExploreBound(t *testing.T) {
	for _, workers := range []int{1, 2, 8} {
		t.Run(fmt.Sprint(workers), func(t *testing.T) { exploreBound(t, workers) })
	}
}

func exploreBound(t *testing.T, workers int) {
	var mu sync.Mutex
	allowed := map[string]int{}
	runReplay = func(ctx context.Context, b *testbin.Build, pkg, test string, p prediction, dir string, opt replay.Options) replay.Verdict {
		mu.Lock()
		defer mu.Unlock()
		if !opt.Explore {
			return replay.Verdict{Verdict: replay.Diverged}
		}
		allowed[test]++
		if test == "T1" && allowed[test] <= 2 {
			// Allowed, but it reproduced without diverging: no exploration.
			return replay.Verdict{Verdict: replay.Reproduced, Passed: true}
		}
		return replay.Verdict{Verdict: replay.Diverged, Explored: true, Passed: true}
	}
	defer func() { runReplay = replayRetrying }()
	q := newReplayQueue(context.Background(), nil, "p", time.Now().Add(time.Hour), Options{}, map[string]bool{})
	q.workers = workers
	var preds []batchPred
	for _, k := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"} {
		preds = append(preds, batchPred{key: k, site: "1"})
	}
	q.add("T1", &trace.Trace{}, batchPreds(t, preds), t.TempDir(), 50, replay.Options{})
	q.add("T2", &trace.Trace{}, batchPreds(t, preds[:6]), t.TempDir(), 50, replay.Options{})
	q.wait()
	q.finish(map[string]bool{}, &Report{})
	// T1: two permits given back, then four explorations.
	if allowed["T1"] != 2+maxExplorations || allowed["T2"] != maxExplorations {
		t.Errorf("replays allowed to explore: T1 %d, T2 %d; want %d and %d", allowed["T1"], allowed["T2"], 2+maxExplorations, maxExplorations)
	}
	for test, b := range q.explore {
		if b.held != 0 || b.used != maxExplorations {
			t.Errorf("%s: %d permits held, %d explorations; want 0, %d", test, b.held, b.used, maxExplorations)
		}
	}
}

// TestConfirmExplored: a failing exploration counts only if each of its
// exploreRuns runs fails the same way from the same step.
func TestConfirmExplored(t *testing.T) {
	fail := replay.Verdict{Verdict: replay.Reproduced, Explored: true, Step: 33, Consequence: "test fails: x_test.go:22: created 2 entries, want 1"}
	for _, c := range []struct {
		name  string
		again []replay.Verdict // the runs after the first
		want  string
	}{
		{"same", []replay.Verdict{fail, fail}, replay.Reproduced},
		{"other count", []replay.Verdict{fail, {Verdict: replay.Reproduced, Explored: true, Step: 33, Consequence: "test fails: x_test.go:22: created 3 entries, want 1"}}, replay.Reproduced},
		{"passed once", []replay.Verdict{fail, {Verdict: replay.Diverged, Explored: true, Step: 33, Passed: true}}, replay.Diverged},
		{"other step", []replay.Verdict{{Verdict: replay.Reproduced, Explored: true, Step: 20, Consequence: fail.Consequence}, fail}, replay.Diverged},
		{"panicked", []replay.Verdict{fail, {Verdict: replay.Reproduced, Explored: true, Step: 33, Panicked: true, Consequence: "panic: boom at x.go:3"}}, replay.Diverged},
	} {
		runs := 0
		runReplay = func(ctx context.Context, b *testbin.Build, pkg, test string, p prediction, dir string, opt replay.Options) replay.Verdict {
			runs++
			return c.again[runs-1]
		}
		q := newReplayQueue(context.Background(), nil, "p", time.Time{}, Options{}, map[string]bool{})
		it := &qItem{g: &qGroup{test: "T"}}
		v := q.confirmExplored(it, fail, t.TempDir(), replay.Options{Explore: true})
		if v.Verdict != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, v.Verdict, v.Message, c.want)
		}
		if c.want == replay.Reproduced && runs != exploreRuns-1 {
			t.Errorf("%s: ran %d more times, want %d", c.name, runs, exploreRuns-1)
		}
	}
	runReplay = replayRetrying
	// Not an exploration, or one that passed: nothing runs again.
	runReplay = func(context.Context, *testbin.Build, string, string, prediction, string, replay.Options) replay.Verdict {
		t.Error("ran again")
		return replay.Verdict{}
	}
	defer func() { runReplay = replayRetrying }()
	q := newReplayQueue(context.Background(), nil, "p", time.Time{}, Options{}, map[string]bool{})
	q.confirmExplored(&qItem{g: &qGroup{test: "T"}}, replay.Verdict{Verdict: replay.Reproduced, Consequence: fail.Consequence}, t.TempDir(), replay.Options{})
	q.confirmExplored(&qItem{g: &qGroup{test: "T"}}, replay.Verdict{Verdict: replay.Diverged, Explored: true, Passed: true}, t.TempDir(), replay.Options{})
}
