package check

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/testbin"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// batchCase is a list of predictions: key, schedule step site (equal
// sites: identical schedules) and whether its replay reproduces it.
type batchPred struct {
	key, site string
	repro     bool
}

func batchPreds(t *testing.T, ps []batchPred) []prediction {
	pats, ok := pattern.Builtin("race")
	if !ok {
		t.Fatal("no race patterns")
	}
	var out []prediction
	for _, p := range ps {
		out = append(out, prediction{
			a: predict.Anomaly{Pattern: pats[0], Key: p.key, Sites: []string{p.key}},
			s: &trace.Schedule{Pattern: pats[0].ID(), Steps: []trace.Step{{G: "g1", Op: trace.Write, Site: p.key + p.site, N: 1}}},
		})
	}
	return out
}

// sequential is the reference: the predictions replayed one after the
// other, as check did before replays ran in parallel.
func sequential(ps []batchPred, max int, seen map[string]bool) (replayed []int, skipped int) {
	ran := map[string]bool{}
	for i, p := range ps {
		if seen[p.key] || ran[p.key+" "+p.site] {
			continue
		}
		if len(replayed) >= max {
			skipped++
			continue
		}
		replayed = append(replayed, i)
		ran[p.key+" "+p.site] = true
		if p.repro {
			seen[p.key] = true
		}
	}
	return replayed, skipped
}

// TestReplayBatchDeterministic: whatever the replays' durations, the batch
// replays exactly what the sequential order would, and reports it in that
// order; at most GOMAXPROCS replays run at once.
func TestReplayBatchDeterministic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	rng := rand.New(rand.NewSource(1))
	keys := []string{"a", "b", "c", "d", "e"}
	overall := 0
	for round := 0; round < 30; round++ {
		var ps []batchPred
		for i := 0; i < 5+rng.Intn(20); i++ {
			ps = append(ps, batchPred{key: keys[rng.Intn(len(keys))], site: fmt.Sprint(rng.Intn(3)), repro: rng.Intn(3) == 0})
		}
		limit := 1 + rng.Intn(12)
		seen0 := map[string]bool{}
		if rng.Intn(2) == 0 {
			seen0[keys[rng.Intn(len(keys))]] = true
		}
		ref := map[string]bool{}
		for k := range seen0 {
			ref[k] = true
		}
		wantIdx, wantSkipped := sequential(ps, limit, ref)

		preds := batchPreds(t, ps)
		var mu sync.Mutex
		running, peak := 0, 0
		runReplay = func(ctx context.Context, b *testbin.Build, pkg, test string, p prediction, dir string, opt replay.Options) replay.Verdict {
			mu.Lock()
			running++
			peak = max(peak, running)
			d := time.Duration(rng.Intn(3)) * time.Millisecond
			mu.Unlock()
			time.Sleep(d)
			mu.Lock()
			running--
			mu.Unlock()
			for i := range preds {
				if preds[i].s == p.s {
					if ps[i].repro {
						return replay.Verdict{Verdict: replay.Reproduced, Message: fmt.Sprint(i)}
					}
					return replay.Verdict{Verdict: replay.Diverged, Message: fmt.Sprint(i)}
				}
			}
			t.Fatal("unknown schedule")
			return replay.Verdict{}
		}
		seen := map[string]bool{}
		for k := range seen0 {
			seen[k] = true
		}
		rep := &Report{}
		skipped := replayBatch(context.Background(), nil, "p", "T", &trace.Trace{}, preds, t.TempDir(),
			time.Now().Add(time.Hour), Options{MaxReplays: limit}, seen, rep)
		var got []string
		for _, f := range rep.Findings {
			got = append(got, f.Verdict.Message)
		}
		var want []string
		for _, i := range wantIdx {
			want = append(want, fmt.Sprint(i))
		}
		if strings.Join(got, " ") != strings.Join(want, " ") || skipped != wantSkipped {
			t.Fatalf("round %d (max %d, %+v): replayed %v, skipped %d; sequentially %v, %d", round, limit, ps, got, skipped, want, wantSkipped)
		}
		if peak > 4 {
			t.Fatalf("%d replays at once, GOMAXPROCS 4", peak)
		}
		overall = max(overall, peak)
	}
	runReplay = replayRetrying
	if overall < 2 {
		t.Error("the replays never ran in parallel")
	}
}

// TestReplayQueueAcrossTests: predictions of several tests' traces in one
// queue, replayed in parallel across tests, give the findings of checking
// the tests one after the other (a combination proved by an earlier test
// is not replayed again; each test has its own -maxreplays), in order.
func TestReplayQueueAcrossTests(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	rng := rand.New(rand.NewSource(2))
	keys := []string{"a", "b", "c", "d"}
	parallel := false
	for round := 0; round < 40; round++ {
		type test struct {
			ps    []batchPred
			preds []prediction
			limit int
		}
		tests := make([]test, 1+rng.Intn(5))
		bySched := map[*trace.Schedule]string{}
		repro := map[*trace.Schedule]bool{}
		for ti := range tests {
			for i := 0; i < rng.Intn(8); i++ {
				tests[ti].ps = append(tests[ti].ps, batchPred{key: keys[rng.Intn(len(keys))], site: fmt.Sprint(rng.Intn(3)), repro: rng.Intn(3) == 0})
			}
			tests[ti].limit = 1 + rng.Intn(5)
			tests[ti].preds = batchPreds(t, tests[ti].ps)
			for i, p := range tests[ti].preds {
				bySched[p.s] = fmt.Sprintf("T%d.%d", ti, i)
				repro[p.s] = tests[ti].ps[i].repro
			}
		}
		// The reference: the tests one after the other.
		var want []string
		ref := map[string]bool{}
		for ti, tt := range tests {
			idx, _ := sequential(tt.ps, tt.limit, ref)
			for _, i := range idx {
				want = append(want, fmt.Sprintf("T%d.%d", ti, i))
			}
		}
		var mu sync.Mutex
		running, peak := 0, 0
		runReplay = func(ctx context.Context, b *testbin.Build, pkg, test string, p prediction, dir string, opt replay.Options) replay.Verdict {
			mu.Lock()
			running++
			peak = max(peak, running)
			d := time.Duration(rng.Intn(3)) * time.Millisecond
			mu.Unlock()
			time.Sleep(d)
			mu.Lock()
			running--
			mu.Unlock()
			if repro[p.s] {
				return replay.Verdict{Verdict: replay.Reproduced, Message: bySched[p.s]}
			}
			return replay.Verdict{Verdict: replay.Diverged, Message: bySched[p.s]}
		}
		seen := map[string]bool{}
		rep := &Report{}
		q := newReplayQueue(context.Background(), nil, "p", time.Now().Add(time.Hour), Options{}, seen)
		for ti, tt := range tests {
			q.add(fmt.Sprintf("T%d", ti), &trace.Trace{}, tt.preds, t.TempDir(), tt.limit, replay.Options{})
		}
		q.wait()
		q.finish(seen, rep)
		var got []string
		for _, f := range rep.Findings {
			got = append(got, f.Verdict.Message)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("round %d: replayed %v; one test after the other: %v", round, got, want)
		}
		if peak > 4 {
			t.Fatalf("%d replays at once, GOMAXPROCS 4", peak)
		}
		parallel = parallel || peak > 1
	}
	runReplay = replayRetrying
	if !parallel {
		t.Error("the replays never ran in parallel")
	}
}

// TestReplayShare: a trace's replays stop once they took their share of
// the budget's work (its other predictions dropped, and the outcome says
// so), while the next trace in the queue still gets its replays.
func TestReplayShare(t *testing.T) {
	runReplay = func(ctx context.Context, b *testbin.Build, pkg, test string, p prediction, dir string, opt replay.Options) replay.Verdict {
		time.Sleep(time.Duration(len(p.a.Key)) * time.Millisecond)
		return replay.Verdict{Verdict: replay.Diverged}
	}
	defer func() { runReplay = replayRetrying }()
	q := newReplayQueue(context.Background(), nil, "p", time.Now().Add(time.Hour), Options{Budget: time.Minute}, map[string]bool{})
	if q.share != shareUnits(time.Minute) || q.share != workOf(10*time.Second) {
		t.Fatalf("share of a minute: %d units, want %d (replayShareMin's)", q.share, workOf(10*time.Second))
	}
	// A share of 2.5 replays: the third starts under it, the rest not.
	q.share = 5 * replayCost(0, 1) / 2
	long := batchPreds(t, []batchPred{{key: "a", site: "1"}, {key: "bb", site: "1"}, {key: "c", site: "1"}, {key: "dddd", site: "1"}, {key: "e", site: "1"}, {key: "f", site: "1"}})
	q.add("T1", &trace.Trace{}, long, t.TempDir(), 50, replay.Options{})
	q.add("T2", &trace.Trace{}, batchPreds(t, []batchPred{{key: "g", site: "1"}}), t.TempDir(), 50, replay.Options{})
	q.wait()
	res := q.finish(map[string]bool{}, &Report{})
	if n := len(res[0].findings); n != 3 || res[0].skipped != 3 || !res[0].shareCut {
		t.Errorf("T1: %d replayed, %d skipped, share cut %v; want 3 replayed, the rest skipped, cut", n, res[0].skipped, res[0].shareCut)
	}
	if len(res[1].findings) != 1 || res[1].shareCut {
		t.Errorf("T2: %d replayed, share cut %v; want its one prediction replayed", len(res[1].findings), res[1].shareCut)
	}
}

// TestReplayQueueBatched: with replays run several to a process
// (replay.RunBatch), where a process stops after a failed replay and
// leaves the rest to another, the findings are still those of checking
// the tests one after the other, in order.
func TestReplayQueueBatched(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	rng := rand.New(rand.NewSource(3))
	keys := []string{"a", "b", "c", "d"}
	batched := 0
	for round := 0; round < 40; round++ {
		type test struct {
			ps    []batchPred
			preds []prediction
			limit int
		}
		dir := t.TempDir()
		tests := make([]test, 1+rng.Intn(6))
		byFile := map[string]string{}
		repro := map[string]bool{}
		for ti := range tests {
			for i := 0; i < rng.Intn(8); i++ {
				tests[ti].ps = append(tests[ti].ps, batchPred{key: keys[rng.Intn(len(keys))], site: fmt.Sprint(rng.Intn(3)), repro: rng.Intn(3) != 0})
			}
			tests[ti].limit = 1 + rng.Intn(5)
			for i, p := range batchPreds(t, tests[ti].ps) {
				// In a file, as check writes them (only those batch).
				p.s.Anomaly = []int{0}
				p.s.Steps[0].Obj = "x#1"
				p.file = filepath.Join(dir, fmt.Sprintf("T%d.%d.schedule", ti, i))
				f, err := os.Create(p.file)
				if err != nil {
					t.Fatal(err)
				}
				p.s.WriteTo(f)
				f.Close()
				h := sha256.New()
				p.s.WriteTo(h)
				h.Sum(p.sum[:0])
				p.steps, p.anomaly, p.s = len(p.s.Steps), p.s.Steps, nil
				tests[ti].preds = append(tests[ti].preds, p)
				byFile[p.file] = fmt.Sprintf("T%d.%d", ti, i)
				repro[p.file] = tests[ti].ps[i].repro
			}
		}
		var want []string
		ref := map[string]bool{}
		for ti, tt := range tests {
			idx, _ := sequential(tt.ps, tt.limit, ref)
			for _, i := range idx {
				want = append(want, fmt.Sprintf("T%d.%d", ti, i))
			}
		}
		verdict := func(file string) replay.Verdict {
			if repro[file] {
				return replay.Verdict{Verdict: replay.Reproduced, Message: byFile[file]}
			}
			return replay.Verdict{Verdict: replay.Diverged, Message: byFile[file]}
		}
		var mu sync.Mutex
		runReplay = func(ctx context.Context, b *testbin.Build, pkg, test string, p prediction, dir string, opt replay.Options) replay.Verdict {
			mu.Lock()
			d := time.Duration(rng.Intn(3)) * time.Millisecond
			mu.Unlock()
			time.Sleep(d)
			return verdict(p.file)
		}
		runBatch = func(ctx context.Context, b *testbin.Build, pkg string, entries []replay.Entry) ([]replay.Verdict, []bool) {
			mu.Lock()
			batched++
			d := time.Duration(rng.Intn(3)) * time.Millisecond
			stopEarly := rng.Intn(4) == 0 // the process could not start
			mu.Unlock()
			time.Sleep(d)
			vs, ran := make([]replay.Verdict, len(entries)), make([]bool, len(entries))
			if stopEarly {
				return vs, ran
			}
			for k, e := range entries {
				vs[k], ran[k] = verdict(e.Sched), true
				if vs[k].Verdict != replay.Reproduced {
					break // the process exits after a failed replay
				}
			}
			return vs, ran
		}
		seen := map[string]bool{}
		rep := &Report{}
		q := newReplayQueue(context.Background(), nil, "p", time.Now().Add(time.Hour), Options{}, seen)
		for ti, tt := range tests {
			q.addBatch(fmt.Sprintf("T%d", ti), &trace.Trace{}, tt.preds, t.TempDir(), tt.limit, replay.Options{}, true, false)
		}
		q.wait()
		q.finish(seen, rep)
		var got []string
		for _, f := range rep.Findings {
			got = append(got, f.Verdict.Message)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("round %d: replayed %v; one test after the other: %v", round, got, want)
		}
	}
	runReplay, runBatch = replayRetrying, replay.RunBatch
	if batched == 0 {
		t.Error("no replays ran in batches")
	}
}

// TestReplayQueueHungBlocking: a blocking pattern's replay that hits the
// wall-clock bound is not tried again for the same site combination in
// another test of the package; a race's is (its timeout says nothing of
// the next trace's schedule).
func TestReplayQueueHungBlocking(t *testing.T) {
	dl, _ := pattern.Builtin("deadlock")
	var lost *pattern.Pattern
	for _, p := range dl {
		if p.Cond {
			lost = p
		}
	}
	var mu sync.Mutex
	ran := map[string]int{}
	runReplay = func(ctx context.Context, b *testbin.Build, pkg, test string, p prediction, dir string, opt replay.Options) replay.Verdict {
		mu.Lock()
		ran[p.a.Key]++
		mu.Unlock()
		return replay.Verdict{Verdict: replay.Timeout}
	}
	defer func() { runReplay = replayRetrying }()
	q := newReplayQueue(context.Background(), nil, "p", time.Now().Add(time.Hour), Options{}, map[string]bool{})
	for ti := 1; ti <= 3; ti++ {
		preds := batchPreds(t, []batchPred{{key: "race", site: fmt.Sprint(ti)}, {key: "lost", site: fmt.Sprint(ti)}})
		preds[1].a.Pattern = lost
		preds[1].s.Pattern = lost.ID()
		q.add(fmt.Sprintf("T%d", ti), &trace.Trace{}, preds, t.TempDir(), 10, replay.Options{})
	}
	q.wait()
	q.finish(map[string]bool{}, &Report{})
	if ran["race"] != 3 || ran["lost"] != 1 {
		t.Errorf("replays: %d of the race, %d of the lost signal; want 3 and 1", ran["race"], ran["lost"])
	}
}

// TestBatchWrongObjectRuns: a schedule that touched other objects in a
// batch's process is replayed alone with that run counted among
// wrongObjectRuns (it ran 1 + wrongObjectRuns times); another failure in
// a batch is not replayed again.
func TestBatchWrongObjectRuns(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1)) // one worker: the two replays in one batch
	defer func() { runReplay, runBatch = replayRetrying, replay.RunBatch }()
	dir := t.TempDir()
	var preds []prediction
	for i, p := range batchPreds(t, []batchPred{{key: "w", site: "1"}, {key: "d", site: "1"}}) {
		p.s.Anomaly = []int{0}
		p.s.Steps[0].Obj = "x#1"
		p.file = filepath.Join(dir, fmt.Sprintf("p%d.schedule", i))
		f, err := os.Create(p.file)
		if err != nil {
			t.Fatal(err)
		}
		p.s.WriteTo(f)
		f.Close()
		h := sha256.New()
		p.s.WriteTo(h)
		h.Sum(p.sum[:0])
		p.steps, p.anomaly, p.s = len(p.s.Steps), p.s.Steps, nil
		preds = append(preds, p)
	}
	verdict := func(file string) replay.Verdict {
		if file == preds[0].file {
			return replay.Verdict{Verdict: replay.WrongObject, Step: 1, Steps: 1, Message: "steps 1 (g1 write x#1 @w1 n=1) and 1 (g1 write x#1 @w1 n=1) of the anomaly touch the same object in the prediction, but x#1 and x#2 in the replay"}
		}
		return replay.Verdict{Verdict: replay.Diverged, Step: 1, Steps: 1}
	}
	var mu sync.Mutex
	alone := map[string][]int{} // file → wrongRuns of each replay alone
	batched := 0
	runReplay = func(ctx context.Context, b *testbin.Build, pkg, test string, p prediction, dir string, opt replay.Options) replay.Verdict {
		mu.Lock()
		alone[p.file] = append(alone[p.file], p.wrongRuns)
		mu.Unlock()
		return verdict(p.file)
	}
	runBatch = func(ctx context.Context, b *testbin.Build, pkg string, entries []replay.Entry) ([]replay.Verdict, []bool) {
		mu.Lock()
		batched++
		mu.Unlock()
		vs, ran := make([]replay.Verdict, len(entries)), make([]bool, len(entries))
		for k, e := range entries {
			vs[k], ran[k] = verdict(e.Sched), true
		}
		return vs, ran
	}
	q := newReplayQueue(context.Background(), nil, "p", time.Now().Add(time.Hour), Options{}, map[string]bool{})
	q.addBatch("T", &trace.Trace{}, preds, t.TempDir(), 10, replay.Options{}, true, false)
	q.wait()
	q.finish(map[string]bool{}, &Report{})
	if batched == 0 {
		t.Fatal("no batch ran")
	}
	if got := alone[preds[0].file]; len(got) != 1 || got[0] != 1 {
		t.Errorf("the wrong object's replays alone, by runs counted before: %v, want [1]", got)
	}
	if got := alone[preds[1].file]; len(got) != 0 {
		t.Errorf("the diverged replay ran alone again: %v", got)
	}
}

// TestBatchLeftInferred: a batch process that stopped after its first
// replay failed (a divergence that left the test's goroutines running)
// does not run its other entries in another process when that failure
// covers them (they begin with the steps it failed within): they are
// inferred, as one replay after the other has them, and no process or
// replay alone runs them. One the failure does not cover still runs.
func TestBatchLeftInferred(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1)) // one worker: the entries in one batch
	defer func() { runReplay, runBatch = replayRetrying, replay.RunBatch }()
	pats, _ := pattern.Builtin("race")
	ss := []*trace.Schedule{
		schedOf([]int{3, 4}, "g1 write @a", "g2 write @b", "g1 read @z", "g2 write @c", "g3 read @d"),
		schedOf([]int{3, 4}, "g1 write @a", "g2 write @b", "g1 read @z", "g3 read @d", "g2 write @c"),
		schedOf([]int{3, 4}, "g1 write @a", "g2 write @b", "g1 read @z", "g2 write @c", "g3 read @d", "g2 write @e"),
		schedOf([]int{3, 4}, "g2 write @b", "g1 write @a", "g1 read @z", "g2 write @c", "g3 read @d"),
	}
	var preds []prediction
	for i, s := range ss {
		p := predOf(t, s, true)
		p.a = predict.Anomaly{Pattern: pats[0], Key: fmt.Sprint(i), Sites: []string{fmt.Sprint(i)}}
		preds = append(preds, p)
	}
	// Each schedule diverges at step 3, where g1 reads @z: the first
	// three share their first three steps and each goroutine's next one
	// (failure.shares), the fourth does not.
	div := replay.Verdict{Verdict: replay.Diverged, Step: 3, Goroutine: "g1", Expected: "g1 read @z n=1", Actual: "g1 write @y n=1", Message: "took another path"}
	var mu sync.Mutex
	ran := map[string]int{}
	runReplay = func(ctx context.Context, b *testbin.Build, pkg, test string, p prediction, dir string, opt replay.Options) replay.Verdict {
		mu.Lock()
		ran[p.file]++
		mu.Unlock()
		return div
	}
	processes := 0
	runBatch = func(ctx context.Context, b *testbin.Build, pkg string, entries []replay.Entry) ([]replay.Verdict, []bool) {
		mu.Lock()
		processes++
		ran[entries[0].Sched]++
		mu.Unlock()
		vs, r := make([]replay.Verdict, len(entries)), make([]bool, len(entries))
		vs[0], r[0] = div, true // the process takes no more after it
		return vs, r
	}
	rep := &Report{}
	q := newReplayQueue(context.Background(), nil, "p", time.Now().Add(time.Hour), Options{}, map[string]bool{})
	q.addBatch("T", &trace.Trace{}, preds, t.TempDir(), 10, replay.Options{}, true, false)
	q.wait()
	q.finish(map[string]bool{}, rep)
	var got []string
	for _, f := range rep.Findings {
		got = append(got, fmt.Sprintf("%s:%v", f.Anomaly.Key, f.Inferred))
	}
	if want := "0:false 1:true 2:true 3:false"; strings.Join(got, " ") != want {
		t.Fatalf("findings %v, want %s", got, want)
	}
	for i, p := range preds {
		want := 1
		if i == 1 || i == 2 {
			want = 0
		}
		if ran[p.file] != want {
			t.Errorf("prediction %d replayed %d times, want %d", i, ran[p.file], want)
		}
	}
	if m := rep.Findings[1].Verdict.Message; !strings.HasPrefix(m, "same prefix as replay 1, which failed at step 3: ") {
		t.Errorf("inferred verdict %q", m)
	}
	if processes != 1 {
		t.Errorf("%d batch processes, want 1 (the four; then the fourth alone)", processes)
	}
}
