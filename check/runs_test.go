package check

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/testbin"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
	"github.com/pecanvet/pecanvet/static/driver"
)

// TestStalledOnLate: only a stall whose awaited goroutine was not waiting
// at a gate is retried; the same with the schedule in memory or in a file.
func TestStalledOnLate(t *testing.T) {
	s := &trace.Schedule{Pattern: "race/WR", Anomaly: []int{0, 1}, Steps: []trace.Step{{G: "g1", Op: trace.Write, Obj: "x", N: 1}, {G: "g2", Op: trace.Read, Obj: "x", N: 1}}}
	file := filepath.Join(t.TempDir(), "s")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	s.WriteTo(f)
	f.Close()
	for _, p := range []prediction{{s: s}, {file: file, steps: 2}} {
		testStalledOnLate(t, p)
	}
}

func testStalledOnLate(t *testing.T, p prediction) {
	for _, c := range []struct {
		v    replay.Verdict
		want bool
	}{
		{replay.Verdict{Verdict: replay.Deadlock, Step: 2, Message: "nothing moved for 2s; step 2 (g2 read) never came"}, true},
		{replay.Verdict{Verdict: replay.Deadlock, Step: 2, Message: "nothing moved for 2s; step 2 (g2 read) never came", Waiting: []string{"g1 waits at g1 write"}}, true},
		{replay.Verdict{Verdict: replay.Deadlock, Step: 2, Message: "nothing moved for 2s; step 2 (g2 read) never came", Waiting: []string{"g2 waits at g2 write"}}, false},
		{replay.Verdict{Verdict: replay.Deadlock, Step: 2, Message: "goroutine g2 blocks in step 2"}, false},
		{replay.Verdict{Verdict: replay.Diverged, Step: 2, Message: "nothing moved"}, false},
		{replay.Verdict{Verdict: replay.Deadlock, Step: 3, Message: "nothing moved"}, false},
	} {
		if got := stalledOnLate(c.v, p); got != c.want {
			t.Errorf("%+v (in a file: %v): stalledOnLate = %v, want %v", c.v, p.s == nil, got, c.want)
		}
	}
}

// TestCandidatesFirst: predictions on a static candidate's sides come
// first, each part in its order (so a combination's instances keep
// theirs).
func TestCandidatesFirst(t *testing.T) {
	p := func(name string, sites ...string) prediction {
		return prediction{a: predict.Anomaly{Key: name, Sites: sites}}
	}
	preds := []prediction{
		p("x1", "a.go:1:2", "a.go:9:2"),
		p("c1", "a.go:5:3", "a.go:7:1"),
		p("x2", "a.go:1:2", "a.go:9:2"),
		p("c2", "a.go:7:1", "a.go:5:3"),
		p("c1", "a.go:5:3", "a.go:7:4"),
	}
	cands := []driver.Candidate{{ID: "race/WW", Sides: driver.Sides{[]string{"a.go:5"}, []string{"a.go:7"}}}}
	var got []string
	for _, q := range candidatesFirst(preds, newCandIndex(cands)) {
		got = append(got, q.a.Key+"@"+strings.Join(q.a.Sites, ","))
	}
	want := []string{"c1@a.go:5:3,a.go:7:1", "c2@a.go:7:1,a.go:5:3", "c1@a.go:5:3,a.go:7:4", "x1@a.go:1:2,a.go:9:2", "x2@a.go:1:2,a.go:9:2"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := candidatesFirst(preds, nil); len(got) != len(preds) || got[0].a.Key != "x1" {
		t.Errorf("without candidates the order changed: %v", got)
	}
}

// TestDistinctFirst: when a trace has more predictions than it may
// replay, the first instance of every site combination comes before the
// later instances of any, each combination's instances in their order
// (lockfree's TestStack_Concurrency_Bytes spent its 100 replays on a few
// combinations' diverging instances and never tried stack.go:46's asv);
// with no more predictions than replays, nothing moves.
func TestDistinctFirst(t *testing.T) {
	p := func(key string, i int) prediction {
		return prediction{a: predict.Anomaly{Key: key, Sites: []string{fmt.Sprint(i)}}}
	}
	preds := []prediction{p("a", 1), p("a", 2), p("a", 3), p("b", 4), p("a", 5), p("c", 6), p("b", 7)}
	str := func(ps []prediction) string {
		var out []string
		for _, q := range ps {
			out = append(out, q.a.Key+q.a.Sites[0])
		}
		return strings.Join(out, " ")
	}
	if got, want := str(distinctFirst(preds, 3)), "a1 b4 c6 a2 a3 a5 b7"; got != want {
		t.Errorf("distinctFirst(7 predictions, 3 replays) = %s, want %s", got, want)
	}
	if got, want := str(distinctFirst(preds, 7)), str(preds); got != want {
		t.Errorf("distinctFirst(7 predictions, 7 replays) = %s, want %s (unchanged)", got, want)
	}
}

// TestWrongObjectAgain: a wrong-object replay is run again (the n-th
// access in a range over a map touches a random entry), up to
// wrongObjectRuns in all; other failures are not.
func TestWrongObjectAgain(t *testing.T) {
	defer func(f func(context.Context, *testbin.Build, string, string, *trace.Schedule, string, replay.Options) replay.Verdict) {
		replayRun = f
	}(replayRun)
	s := &trace.Schedule{Pattern: "race/WR", Anomaly: []int{0, 1}, Steps: []trace.Step{{G: "g1", Op: trace.Write, Obj: "x", N: 1}, {G: "g2", Op: trace.Read, Obj: "x", N: 1}}}
	for _, c := range []struct {
		verdicts []string // what the runs give, in turn (the last from then on)
		want     string
		runs     int
	}{
		{[]string{replay.WrongObject, replay.Reproduced}, replay.Reproduced, 2},
		{[]string{replay.WrongObject, replay.WrongObject, replay.WrongObject, replay.Reproduced}, replay.Reproduced, 4},
		{[]string{replay.WrongObject}, replay.WrongObject, wrongObjectRuns},
		{[]string{replay.Diverged, replay.Reproduced}, replay.Diverged, 1},
		{[]string{replay.Reproduced}, replay.Reproduced, 1},
	} {
		runs := 0
		replayRun = func(context.Context, *testbin.Build, string, string, *trace.Schedule, string, replay.Options) replay.Verdict {
			v := c.verdicts[min(runs, len(c.verdicts)-1)]
			runs++
			return replay.Verdict{Verdict: v, Step: 2, Steps: 2}
		}
		v := replayRetrying(context.Background(), nil, "p", "TestX", prediction{s: s}, t.TempDir(), replay.Options{})
		if v.Verdict != c.want || runs != c.runs {
			t.Errorf("%v: %s after %d runs, want %s after %d", c.verdicts, v.Verdict, runs, c.want, c.runs)
		}
	}
	// An earlier instance of the combination touched other objects so
	// after all its runs: a run alike is the last; one unlike is not.
	msg := func(site string) string {
		return "steps 1 (g1 write x#3 @a.go:1 n=1) and 2 (g2 read x#3 @" + site + " n=1) of the anomaly touch the same object in the prediction, but x#2 and x#3 in the replay"
	}
	earlier, _ := wrongObjectShape(msg("b.go:2"))
	for _, c := range []struct {
		site string
		runs int
	}{{"b.go:2", 1}, {"c.go:3", wrongObjectRuns}} {
		runs := 0
		replayRun = func(context.Context, *testbin.Build, string, string, *trace.Schedule, string, replay.Options) replay.Verdict {
			runs++
			return replay.Verdict{Verdict: replay.WrongObject, Step: 2, Steps: 2, Message: msg(c.site)}
		}
		v := replayRetrying(context.Background(), nil, "p", "TestX", prediction{s: s, wrongShape: earlier}, t.TempDir(), replay.Options{})
		if v.Verdict != replay.WrongObject || runs != c.runs {
			t.Errorf("after an earlier instance's wrong object, one @%s: %s after %d runs, want wrong-object after %d", c.site, v.Verdict, runs, c.runs)
		}
	}
	// A batch's run that touched other objects is one of the runs: alone,
	// wrongObjectRuns-1 more.
	runs := 0
	replayRun = func(context.Context, *testbin.Build, string, string, *trace.Schedule, string, replay.Options) replay.Verdict {
		runs++
		return replay.Verdict{Verdict: replay.WrongObject, Step: 2, Steps: 2, Message: msg("b.go:2")}
	}
	if v := replayRetrying(context.Background(), nil, "p", "TestX", prediction{s: s, wrongRuns: 1}, t.TempDir(), replay.Options{}); v.Verdict != replay.WrongObject || runs != wrongObjectRuns-1 {
		t.Errorf("after a batch's wrong object: %s after %d runs alone, want wrong-object after %d", v.Verdict, runs, wrongObjectRuns-1)
	}
}

// TestStallConfirmed: a stall ("nothing moved") on a goroutine not at a
// gate is run again at four times the bound; only when that run stalls at
// the same step is the verdict Stalled, a failure within the prefix that
// schedules sharing it inherit (failedWithin) instead of each waiting out
// the 2+8 s again (ulule/limiter's fasthttp test: 88 schedules, 18 s
// each). A first stall that the retry gets past, or stalls elsewhere, is
// not.
func TestStallConfirmed(t *testing.T) {
	defer func(f func(context.Context, *testbin.Build, string, string, *trace.Schedule, string, replay.Options) replay.Verdict) {
		replayRun = f
	}(replayRun)
	s := &trace.Schedule{Pattern: "race/WR", Anomaly: []int{1, 2}, Steps: []trace.Step{
		{G: "g1", Op: trace.Write, Obj: "y", N: 1}, {G: "g2", Op: trace.Write, Obj: "x", N: 1}, {G: "g1", Op: trace.Read, Obj: "x", N: 1}}}
	stall := func(step int) replay.Verdict {
		return replay.Verdict{Verdict: replay.Deadlock, Step: step, Steps: 3, Waiting: []string{"g1 waits at g1 read x#1 n=1"},
			Message: fmt.Sprintf("nothing moved for 2s; step %d never came", step)}
	}
	for _, c := range []struct {
		name  string
		runs  []replay.Verdict
		stall bool
	}{
		{"stalled twice at step 2", []replay.Verdict{stall(2), stall(2)}, true},
		{"the retry stalled elsewhere", []replay.Verdict{stall(2), stall(1)}, false},
		{"the retry went on", []replay.Verdict{stall(2), {Verdict: replay.Reproduced, Step: 3, Steps: 3}}, false},
		{"g1 waits at a gate: no retry", []replay.Verdict{stall(3), stall(3)}, false},
	} {
		runs := 0
		var stalls []time.Duration
		replayRun = func(_ context.Context, _ *testbin.Build, _, _ string, _ *trace.Schedule, _ string, o replay.Options) replay.Verdict {
			stalls = append(stalls, stallOf(o))
			v := c.runs[min(runs, len(c.runs)-1)]
			runs++
			return v
		}
		v := replayRetrying(context.Background(), nil, "p", "TestX", prediction{s: s}, t.TempDir(), replay.Options{})
		if v.Stalled != c.stall || failedWithin(v, 3) != c.stall {
			t.Errorf("%s: Stalled %v, failedWithin %v; want %v", c.name, v.Stalled, failedWithin(v, 3), c.stall)
		}
		if c.name != "g1 waits at a gate: no retry" && (len(stalls) != 2 || stalls[1] != 4*stalls[0]) {
			t.Errorf("%s: runs with stall bounds %v, want 2, the second at 4x", c.name, stalls)
		}
	}
	// Shared: a schedule with the same first step and next steps
	// inherits the confirmed stall at step 2.
	replayRun = func(context.Context, *testbin.Build, string, string, *trace.Schedule, string, replay.Options) replay.Verdict {
		return stall(2)
	}
	p := prediction{s: s}
	v := replayRetrying(context.Background(), nil, "p", "TestX", p, t.TempDir(), replay.Options{})
	if !newFailure(0, p, v).shares(p.sig(v.Step)) {
		t.Errorf("a confirmed stall is not shared by its own schedule")
	}
}

// TestCandIndex: the index answers as a scan of every candidate's sides
// (onSides) does, on random sites and candidates.
func TestCandIndex(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	line := func() string { return fmt.Sprintf("f%d.go:%d", rnd.IntN(2), rnd.IntN(12)) }
	for round := 0; round < 200; round++ {
		var cands []driver.Candidate
		for range rnd.IntN(6) {
			var sd driver.Sides
			for k := range sd {
				for range 1 + rnd.IntN(3) {
					sd[k] = append(sd[k], line())
				}
			}
			cands = append(cands, driver.Candidate{Sides: sd})
		}
		x := newCandIndex(cands)
		for range 50 {
			var sites []string
			for range 2 + rnd.IntN(3) {
				sites = append(sites, fmt.Sprintf("%s:%d", line(), 1+rnd.IntN(9)))
			}
			want := false
			for _, c := range cands {
				want = want || onSides(sites, c.Sides)
			}
			if got := x.onCandidate(sites); got != want {
				t.Fatalf("sites %v, candidates %v: index says %v, the scan %v", sites, cands, got, want)
			}
		}
	}
	if newCandIndex(nil).onCandidate([]string{"a.go:1:1"}) {
		t.Error("no candidates, yet on one")
	}
}

// TestNotReplayedNote: the note on predictions a bound left unreplayed
// says whether they were only more instances of site combinations
// already replayed without a proof, or left some combination untried
// (one proved by an earlier test is not untried).
func TestNotReplayedNote(t *testing.T) {
	for _, c := range []struct {
		tried, seen []string
		want        string
	}{
		{[]string{"a", "b"}, nil, "5 predictions not replayed (-maxreplays 100): more instances of 2 site combinations already replayed here without a proof"},
		{[]string{"a"}, []string{"b"}, "more instances of 2 site combinations already replayed"},
		{[]string{"a"}, nil, "5 predictions not replayed (-maxreplays 100), of 2 site combinations, 1 of them never replayed"},
	} {
		tc := &testCheck{pkg: "p", test: "TestX", opt: Options{MaxReplays: 100}, rep: &Report{}, seen: map[string]bool{}, skipped: 5,
			skippedKeys: map[string]bool{"a": true, "b": true}, triedKeys: map[string]bool{}}
		for _, k := range c.tried {
			tc.triedKeys[k] = true
		}
		for _, k := range c.seen {
			tc.seen[k] = true
		}
		tc.notes()
		if len(tc.rep.Notes) != 1 || !strings.Contains(tc.rep.Notes[0].String(), c.want) {
			t.Errorf("tried %q, seen %q: notes %q, want one with %q", c.tried, c.seen, tc.rep.Notes, c.want)
		}
	}
}

// TestCutReasonNote: the note on predictions a cut left unreplayed names
// its reason: the reserve the later rounds leave for the phases after
// them (or a replay's charge past what is left), and the phase's own
// limit when the budget cut them there.
func TestCutReasonNote(t *testing.T) {
	for _, c := range []struct {
		set  func(tc *testCheck)
		want string
	}{
		{func(tc *testCheck) { tc.reserveCut, tc.reserve = true, 6700 }, "past the budget less 6700 work units held for the perturbed recordings and the race detector"},
		{func(tc *testCheck) { tc.reserveCut = true }, "the budget left was less than a replay's charge"},
		{func(tc *testCheck) { tc.lateCut, tc.lateLimit = true, 459_000 }, "budget of 5m0s spent (this phase's limit, 459000 of its 510000 work units)"},
		{func(tc *testCheck) { tc.lateCut, tc.lateLimit = true, 510_000 }, "budget of 5m0s spent (510000 work units)"},
	} {
		tc := &testCheck{pkg: "p", test: "TestX", opt: Options{MaxReplays: 100, Budget: 5 * time.Minute}, rep: &Report{}, seen: map[string]bool{}, skipped: 5,
			skippedKeys: map[string]bool{"a": true}, triedKeys: map[string]bool{}, acct: newAccount(5 * time.Minute)}
		c.set(tc)
		tc.notes()
		if len(tc.rep.Notes) != 1 || !strings.Contains(tc.rep.Notes[0].String(), c.want) {
			t.Errorf("notes %q, want one with %q", tc.rep.Notes, c.want)
		}
	}
}

// TestSettleHanded: the predictions a hand-over (handOver) reopened no
// longer count as not replayed from the phase's cut: replayed, the note
// goes; cut again, the note names the hand-over's reason (the whole
// budget), not the phase's; with others left from another cut, those
// keep theirs.
func TestSettleHanded(t *testing.T) {
	newTC := func() *testCheck {
		tc := &testCheck{pkg: "p", test: "TestX", opt: Options{MaxReplays: 100, Budget: 5 * time.Minute}, rep: &Report{}, seen: map[string]bool{}, acct: newAccount(5 * time.Minute)}
		// The phase's cut: 3 of the trace's predictions, by the reserve.
		(&queued{c: tc, flt: &filters{off: true}}).settle(qResult{skipped: 3, skippedKeys: map[string]bool{"a": true}, triedKeys: map[string]bool{}, reserveCut: true, reserve: 5100, limit: 459_000})
		return tc
	}
	replayed := []Finding{{Verdict: replay.Verdict{Verdict: replay.Diverged}}, {Verdict: replay.Verdict{Verdict: replay.Diverged}}}
	for _, c := range []struct {
		name string
		r    qResult
		n    int
		want string // "" for no note
	}{
		{"all replayed", qResult{findings: append(replayed, Finding{Verdict: replay.Verdict{Verdict: replay.Diverged}})}, 3, ""},
		{"one cut by the budget", qResult{findings: replayed, skipped: 1, skippedKeys: map[string]bool{"a": true}, lateCut: true, limit: 510_000}, 3, "1 predictions not replayed (budget of 5m0s spent (510000 work units))"},
		{"two of three handed", qResult{findings: replayed}, 2, "1 predictions not replayed (the later replay rounds stop where a replay would end past the budget less 5100"},
	} {
		tc := newTC()
		qd := &queued{c: tc, flt: &filters{off: true}}
		qd.settleHanded(c.r, c.n)
		tc.notes()
		switch {
		case c.want == "" && len(tc.rep.Notes) != 0:
			t.Errorf("%s: notes %q, want none", c.name, tc.rep.Notes)
		case c.want != "" && (len(tc.rep.Notes) != 1 || !strings.Contains(tc.rep.Notes[0].String(), c.want)):
			t.Errorf("%s: notes %q, want one with %q", c.name, tc.rep.Notes, c.want)
		}
	}
}
