package check

import (
	"cmp"
	"context"
	"fmt"
	"math/rand"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/testbin"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// workTest is a test of TestWorkCut: the work its recording and
// prediction charge, the events of its trace and its predictions.
type workTest struct {
	rp     int64
	events int
	preds  int
}

// workRun checks tests as checkTests does (admit, charge, queue) under a
// limit and share (and, when least is not 0, the fair share of
// fairShare, at least least, and the later rounds of again), with
// replays that take d(i) of wall time and move the fake clock by slow
// times that; it returns the tests checked and the predictions replayed.
func workRun(t *testing.T, tests []workTest, limit, share, least int64, workers int, slow time.Duration, rng *rand.Rand) (checked []int, replayed []string, cut []string) {
	checked, replayed, cut, _ = workRunReserve(t, tests, limit, share, least, 0, workers, slow, rng)
	return checked, replayed, cut
}

// workRunReserve is workRun with the later rounds leaving reserve under
// the limit (replayQueue.reserve); it also returns the work charged.
func workRunReserve(t *testing.T, tests []workTest, limit, share, least, reserve int64, workers int, slow time.Duration, rng *rand.Rand) (checked []int, replayed []string, cut []string, total int64) {
	return workRunHandOver(t, tests, limit, share, least, reserve, -1, 0, workers, slow, rng)
}

// workRunHandOver is workRunReserve followed, when other is not negative,
// by other units charged outside the queue and the hand-over of the
// predictions the budget cut under whole (handOver, as handOver.run
// does); cut is then the hand-over's.
func workRunHandOver(t *testing.T, tests []workTest, limit, share, least, reserve, other, whole int64, workers int, slow time.Duration, rng *rand.Rand) (checked []int, replayed []string, cut []string, total int64) {
	clock := fakeReplays(rng, slow, func(test string, p prediction) replay.Verdict {
		if quietKey(p.a.Key) {
			return replay.Verdict{Verdict: replay.Deadlock, Message: test + "/" + p.a.Key + " (" + quietWake + ")"}
		}
		return replay.Verdict{Verdict: replay.Diverged, Message: test + "/" + p.a.Key}
	})
	q := newReplayQueue(context.Background(), nil, "p", clock.Add(time.Hour), Options{}, map[string]bool{})
	q.workers, q.limit, q.share, q.shareMin, q.reserve = workers, limit, share, least, reserve
	var groups []int
	for ti, wt := range tests {
		if least > 0 {
			q.setLeft(len(tests) - ti)
		}
		if ok, _ := q.admit(); !ok {
			break
		}
		checked = append(checked, ti)
		q.charge(wt.rp)
		var ps []batchPred
		for k := 0; k < wt.preds; k++ {
			ps = append(ps, batchPred{key: fmt.Sprintf("T%d.%d", ti, k), site: "1"})
		}
		q.add(fmt.Sprintf("T%d", ti), &trace.Trace{Events: make([]trace.Event, wt.events)}, batchPreds(t, ps), t.TempDir(), 50, replay.Options{})
		groups = append(groups, ti)
	}
	for least > 0 && q.again() {
	}
	q.wait()
	take := func(rs []qResult) {
		cut = nil
		for gi, r := range rs {
			for _, f := range r.findings {
				replayed = append(replayed, f.Verdict.Message)
			}
			if r.shareCut || r.lateCut || r.netCut || r.reserveCut {
				cut = append(cut, fmt.Sprintf("T%d share %v late %v net %v reserve %v", groups[gi], r.shareCut, r.lateCut, r.netCut, r.reserveCut))
			}
		}
	}
	seen := map[string]bool{}
	take(q.finish(seen, &Report{}))
	if other >= 0 {
		if _, ok := q.handOver(whole, other, 0); ok {
			for q.again() {
			}
			q.wait()
			take(q.finish(seen, &Report{}))
		} else {
			cut = []string{"no hand-over"}
		}
	}
	return checked, replayed, cut, q.total()
}

// quietKey says whether workRun's replay of the prediction of key
// deadlocks by the quiet bound: every third one.
func quietKey(key string) bool { return strings.HasSuffix(key, ".1") || strings.HasSuffix(key, ".4") }

// TestWorkCut: which tests are checked and which predictions replayed is
// a function of the work charged, in the order a sequential check would
// charge it, not of the time anything took: the same with one worker or
// several, with replays of random lengths, and with a clock running a
// hundred times slower. And it is what the sequential check gives.
func TestWorkCut(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer func() { now, runReplay = time.Now, replayRetrying }()
	rng := rand.New(rand.NewSource(7))
	for round := 0; round < 12; round++ {
		var tests []workTest
		for i := 0; i < 3+rng.Intn(8); i++ {
			tests = append(tests, workTest{rp: int64(rng.Intn(200)), events: rng.Intn(40_000), preds: rng.Intn(6)})
		}
		limit, share := int64(200+rng.Intn(800)), int64(60+rng.Intn(200))
		// The sequential check: a test starts under the limit; a replay
		// starts if it ends under the limit, and under its trace's share.
		var wantChecked []int
		var wantReplayed []string
		spent := int64(0)
		for ti, wt := range tests {
			if spent >= limit {
				break
			}
			wantChecked = append(wantChecked, ti)
			spent += wt.rp
			g := int64(0)
			for k := 0; k < wt.preds; k++ {
				// Its own charge must end under the limit (the quiet
				// wait's is known only after it).
				if spent+replayCost(wt.events, 1) >= limit || g >= share {
					continue
				}
				c := replayCost(wt.events, 1)
				msg := fmt.Sprintf("T%d/T%d.%d", ti, ti, k)
				if quietKey(fmt.Sprintf("T%d.%d", ti, k)) {
					// A deadlock judged by the quiet bound costs it too.
					c += quietUnits
					msg += " (" + quietWake + ")"
				}
				spent, g = spent+c, g+c
				wantReplayed = append(wantReplayed, msg)
			}
		}
		var first []string
		for _, run := range []struct {
			workers int
			slow    time.Duration
		}{{1, 1}, {4, 1}, {4, 100}, {2, 100}} {
			checked, replayed, cut := workRun(t, tests, limit, share, 0, run.workers, run.slow, rng)
			if !slices.Equal(checked, wantChecked) || !slices.Equal(replayed, wantReplayed) {
				t.Fatalf("round %d, %d workers, clock %dx: checked %v, replayed %v; sequentially %v, %v", round, run.workers, run.slow, checked, replayed, wantChecked, wantReplayed)
			}
			if first == nil {
				first = cut
			} else if strings.Join(cut, "; ") != strings.Join(first, "; ") {
				t.Fatalf("round %d, %d workers, clock %dx: cuts %v, first run %v", round, run.workers, run.slow, cut, first)
			}
		}
	}
}

// TestWorkCutNet: past the wall-clock safety net nothing more starts,
// and the cut says it was the net's.
func TestWorkCutNet(t *testing.T) {
	defer func() { now, runReplay = time.Now, replayRetrying }()
	tests := []workTest{{rp: 10, preds: 3}, {rp: 10, preds: 3}}
	checked, replayed, cut := workRun(t, tests, 1_000_000, 1_000_000, 0, 1, 2*time.Hour, rand.New(rand.NewSource(1)))
	// The first replay moves the clock two hours, past the net (an hour):
	// the second test is checked only if admitted before (the net is the
	// clock's, so that depends on timing), and no other replay starts.
	if len(replayed) != 1 || len(cut) != len(checked) {
		t.Fatalf("checked %v, replayed %v, cut %v; want one replay, then every test checked cut by the net", checked, replayed, cut)
	}
	for _, c := range cut {
		if !strings.Contains(c, "net true") || strings.Contains(c, "share true") || strings.Contains(c, "late true") {
			t.Errorf("cut %q; want the net's", c)
		}
	}
}

// TestFairShareCut: with fair shares (fairShare), a trace's replays stop
// at its part of what is left over the tests left, so a few tests with
// many costly replays at the start no longer leave the later tests
// unchecked; and the cut is still the sequential check's, whatever the
// workers and the clock.
func TestFairShareCut(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer func() { now, runReplay = time.Now, replayRetrying }()
	rng := rand.New(rand.NewSource(11))
	sequential := func(tests []workTest, limit, share, least int64) (checked []int, replayed []string) {
		checked, replayed, _ = sequentialRounds(tests, limit, share, least)
		return checked, replayed
	}
	for round := 0; round < 10; round++ {
		var tests []workTest
		for i := 0; i < 3+rng.Intn(8); i++ {
			tests = append(tests, workTest{rp: int64(rng.Intn(100)), events: rng.Intn(40_000), preds: rng.Intn(6)})
		}
		limit, share, least := int64(300+rng.Intn(800)), int64(150+rng.Intn(200)), int64(40+rng.Intn(60))
		wantChecked, wantReplayed := sequential(tests, limit, share, least)
		for _, run := range []struct {
			workers int
			slow    time.Duration
		}{{1, 1}, {4, 1}, {2, 100}} {
			checked, replayed, _ := workRun(t, tests, limit, share, least, run.workers, run.slow, rng)
			if !slices.Equal(checked, wantChecked) || !slices.Equal(replayed, wantReplayed) {
				t.Fatalf("round %d, %d workers, clock %dx: checked %v, replayed %v; sequentially %v, %v", round, run.workers, run.slow, checked, replayed, wantChecked, wantReplayed)
			}
		}
	}
	// Three costly tests first (ten replays of 140 units each), then ten
	// cheap ones (one replay of 41): with the fixed share of 1,400 the
	// costly ones spend the limit of 4,000 but for less than a replay of
	// theirs (a replay starts only if it ends under the limit), and only
	// three of the cheap ones are checked; with fair shares all are.
	tests := []workTest{{events: 400_000, preds: 10}, {events: 400_000, preds: 10}, {events: 400_000, preds: 10}}
	for i := 0; i < 10; i++ {
		tests = append(tests, workTest{rp: 15, events: 100, preds: 1})
	}
	if checked, _ := sequential(tests, 4000, 1400, 0); len(checked) != 6 {
		t.Fatalf("fixed share: %d tests checked, want 6", len(checked))
	}
	checked, replayed := sequential(tests, 4000, 1400, 100)
	if len(checked) != len(tests) {
		t.Fatalf("fair share: %d of %d tests checked", len(checked), len(tests))
	}
	got, gotReplayed, _ := workRun(t, tests, 4000, 1400, 100, 2, 1, rng)
	if !slices.Equal(got, checked) || !slices.Equal(gotReplayed, replayed) {
		t.Fatalf("fair share: checked %v, replayed %v; sequentially %v, %v", got, gotReplayed, checked, replayed)
	}
}

func TestFairShare(t *testing.T) {
	for _, c := range []struct {
		limit, before int64
		left          int
		most, least   int64
		want          int64
	}{
		{459_000, 0, 80, 51_000, 5_100, 5_737},      // ants's first test
		{459_000, 0, 5, 51_000, 5_100, 51_000},      // few tests: the fixed share
		{459_000, 458_000, 1, 51_000, 5_100, 5_100}, // at least least
		{459_000, 0, 0, 51_000, 5_100, 51_000},      // left unknown
		{0, 0, 80, 51_000, 5_100, 51_000},           // no limit
		{459_000, 0, 80, 0, 5_100, 0},               // no share
	} {
		if got := fairShare(c.limit, c.before, c.left, c.most, c.least); got != c.want {
			t.Errorf("fairShare(%d, %d, %d, %d, %d) = %d, want %d", c.limit, c.before, c.left, c.most, c.least, got, c.want)
		}
	}
}

// sequentialRounds is what a check replaying one prediction at a time
// does with tests under a limit, a share (fair, at least least, when
// least is not 0) and, when least is not 0, the later rounds of again:
// the tests checked, the predictions replayed (test by test, in order, as
// finish gives them) and each round's share (0 for round 0).
func sequentialRounds(tests []workTest, limit, share, least int64) (checked []int, replayed []string, shares []int64) {
	checked, replayed, shares, _ = sequentialReserve(tests, limit, share, least, 0)
	return checked, replayed, shares
}

// sequentialReserve is sequentialRounds with the later rounds stopping
// at the limit less reserve: a later round's replay starts only if its
// charge (replayCost: a quiet deadlock's wait is known only after it)
// ends under it. It also returns the work charged.
func sequentialReserve(tests []workTest, limit, share, least, reserve int64) (checked []int, replayed []string, shares []int64, spent int64) {
	checked, replayed, shares, spent = sequentialHandOver(tests, limit, share, least, reserve, -1, 0)
	return checked, replayed, shares, spent
}

// sequentialHandOver is sequentialReserve followed, when other is not
// negative, by other units charged outside the queue (the drivers) and
// the hand-over (replayQueue.handOver): every prediction the budget cut,
// in order, reopened in rounds under whole with no reserve. The
// hand-over's replays follow the others in replayed, as its finish gives
// them.
func sequentialHandOver(tests []workTest, limit, share, least, reserve, other, whole int64) (checked []int, replayed []string, shares []int64, spent int64) {
	type pred struct{ ti, k int }
	var done []pred
	var cut []pred      // by its trace's share, in order
	var lost []pred     // by the limit (or a later round's)
	charged := int64(0) // records and predictions only (spent: all work)
	cost := func(p pred) int64 {
		c := replayCost(tests[p.ti].events, 1)
		if quietKey(fmt.Sprintf("T%d.%d", p.ti, p.k)) {
			c += quietUnits
		}
		return c
	}
	for ti, wt := range tests {
		if spent >= limit {
			break
		}
		checked = append(checked, ti)
		spent, charged = spent+wt.rp, charged+wt.rp
		fair := share
		if least > 0 {
			fair = fairShare(limit, charged, len(tests)-ti, share, least)
		}
		g := int64(0)
		for k := 0; k < wt.preds; k++ {
			switch {
			case spent+replayCost(wt.events, 1) >= limit:
				lost = append(lost, pred{ti, k})
			case g >= fair:
				cut = append(cut, pred{ti, k})
			default:
				spent, g = spent+cost(pred{ti, k}), g+cost(pred{ti, k})
				done = append(done, pred{ti, k})
			}
		}
	}
	shares = []int64{0}
	rounds := func(limit int64) {
		fits := func() bool {
			return slices.ContainsFunc(cut, func(p pred) bool { return spent+replayCost(tests[p.ti].events, 1) < limit })
		}
		for least > 0 && fits() {
			traces := map[int]bool{}
			for _, p := range cut {
				traces[p.ti] = true
			}
			rs := max(least, (limit-spent)/int64(len(traces)))
			shares = append(shares, rs)
			g := map[int]int64{}
			var next []pred
			for _, p := range cut {
				switch {
				case spent+replayCost(tests[p.ti].events, 1) >= limit:
					lost = append(lost, p)
				case g[p.ti] >= rs:
					next = append(next, p)
				default:
					spent, g[p.ti] = spent+cost(p), g[p.ti]+cost(p)
					done = append(done, p)
				}
			}
			cut = next
		}
	}
	rounds(limit - reserve)
	order := func(ps []pred) {
		slices.SortFunc(ps, func(a, b pred) int { return cmp.Or(cmp.Compare(a.ti, b.ti), cmp.Compare(a.k, b.k)) })
	}
	add := func(ps []pred) {
		order(ps)
		for _, p := range ps {
			msg := fmt.Sprintf("T%d/T%d.%d", p.ti, p.ti, p.k)
			if quietKey(fmt.Sprintf("T%d.%d", p.ti, p.k)) {
				msg += " (" + quietWake + ")"
			}
			replayed = append(replayed, msg)
		}
	}
	add(done)
	if other >= 0 && least > 0 {
		spent += other
		cut, lost, done = append(cut, lost...), nil, nil
		order(cut)
		rounds(whole)
		add(done)
	}
	return checked, replayed, shares, spent
}

// TestReplayRounds: the later rounds (again) give what round 0's fair
// shares left unspent back to the traces they cut, evenly, trace by
// trace in order, after every test's first round; no prediction is cut
// while budget remains, and the outcome is the sequential one whatever
// the workers and the clock.
func TestReplayRounds(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer func() { now, runReplay = time.Now, replayRetrying }()
	rng := rand.New(rand.NewSource(7))
	same := func(name string, tests []workTest, limit, share, least int64) []string {
		t.Helper()
		checked, replayed, _ := sequentialRounds(tests, limit, share, least)
		for _, run := range []struct {
			workers int
			slow    time.Duration
		}{{1, 1}, {2, 1}, {4, 100}} {
			got, gotReplayed, _ := workRun(t, tests, limit, share, least, run.workers, run.slow, rng)
			if !slices.Equal(got, checked) || !slices.Equal(gotReplayed, replayed) {
				t.Fatalf("%s, %d workers, clock %dx: checked %v, replayed %v; sequentially %v, %v", name, run.workers, run.slow, got, gotReplayed, checked, replayed)
			}
		}
		return replayed
	}
	count := func(replayed []string, test string) int {
		n := 0
		for _, m := range replayed {
			if strings.HasPrefix(m, test+"/") {
				n++
			}
		}
		return n
	}
	// ants' shape: three floods first (ten replays each, 140 units, 240
	// for the quiet .1 and .4: 1,600 a flood), then ten cheap tests (15
	// units recorded, one replay of 40). All of it is 5,350 units.
	floods := []workTest{{events: 400_000, preds: 10}, {events: 400_000, preds: 10}, {events: 400_000, preds: 10}}
	for i := 0; i < 10; i++ {
		floods = append(floods, workTest{rp: 15, events: 100, preds: 1})
	}
	// Under a limit of 6,000 everything is replayed: round 0 gives the
	// first flood 6,000/13 = 461 units (three replays: 140, 240, 140; a
	// share is checked before a replay, not after), the second 500 (the
	// same three), the third 545 (four, 660); with the cheap tests' 550,
	// round 1 splits the 6,000 - 2,250 left over the three (1,250
	// each), which covers the rest of each (1,080, 1,080, 940).
	if _, _, shares := sequentialRounds(floods, 6000, 1400, 100); !slices.Equal(shares, []int64{0, 1250}) {
		t.Errorf("limit 6,000: shares %v, want [0 1250]", shares)
	}
	replayed := same("limit 6,000", floods, 6000, 1400, 100)
	if len(replayed) != 40 {
		t.Errorf("limit 6,000: %d of 40 predictions replayed", len(replayed))
	}
	// Under 4,000, round 0 gives the floods 307, 333 and 363 (two
	// replays each, 380), and round 1 each (4,000 - 1,690)/3 = 770: the
	// first takes five more (800), the second five, and the third four
	// (ending at 3,950: a later round's replay starts only if it ends
	// under the limit, and the fifth's 140 would not); no cut replay
	// fits in the 50 left, and round 2 does not start.
	if _, _, shares := sequentialRounds(floods, 4000, 1400, 100); !slices.Equal(shares, []int64{0, 770}) {
		t.Errorf("limit 4,000: shares %v, want [0 770]", shares)
	}
	replayed = same("limit 4,000", floods, 4000, 1400, 100)
	for ti, want := range []int{7, 7, 6} {
		if n := count(replayed, fmt.Sprintf("T%d", ti)); n != want {
			t.Errorf("limit 4,000: T%d replayed %d predictions, want %d", ti, n, want)
		}
	}
	for ti := 3; ti < len(floods); ti++ {
		if n := count(replayed, fmt.Sprintf("T%d", ti)); n != 1 {
			t.Errorf("limit 4,000: T%d replayed %d predictions, want 1", ti, n)
		}
	}
	// Many tests, every tenth with twenty replays (3,000 units), the
	// others with one (140), under a limit that covers all (42,600 of
	// 50,000): round 0's fair share (500 for the first) cuts the long
	// ones, and the later rounds give them back, so every test keeps
	// what the fixed share alone gives it (session 35's objection to
	// the fair share).
	var many []workTest
	for i := 0; i < 100; i++ {
		many = append(many, workTest{events: 400_000, preds: 1})
		if i%10 == 0 {
			many[i].preds = 20
		}
	}
	fixed := same("many tests, fixed share", many, 50_000, 20_000, 0)
	if len(fixed) != 290 {
		t.Fatalf("many tests, fixed share: %d of 290 predictions replayed", len(fixed))
	}
	if _, _, shares := sequentialRounds(many, 50_000, 20_000, 100); len(shares) < 2 {
		t.Fatalf("many tests: round 0 cut nothing; the case does not test the rounds")
	}
	if rounds := same("many tests, rounds", many, 50_000, 20_000, 100); !slices.Equal(rounds, fixed) {
		t.Errorf("many tests: the rounds replayed %d predictions, the fixed share %d", len(rounds), len(fixed))
	}
}

// TestReplayRoundsReserve: the later rounds stop at the limit less the
// reserve (replayQueue.reserve), which the phases after the queue get:
// no later round's replay ends past it, round 0 is not bound by it, the
// note names the reserve, and the outcome is the sequential one
// whatever the workers and the clock.
func TestReplayRoundsReserve(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer func() { now, runReplay = time.Now, replayRetrying }()
	rng := rand.New(rand.NewSource(13))
	same := func(name string, tests []workTest, limit, share, least, reserve int64) (replayed, cut []string, total int64) {
		t.Helper()
		checked, replayed, _, spent := sequentialReserve(tests, limit, share, least, reserve)
		var first []string
		for _, run := range []struct {
			workers int
			slow    time.Duration
		}{{1, 1}, {2, 1}, {4, 100}} {
			got, gotReplayed, gotCut, gotTotal := workRunReserve(t, tests, limit, share, least, reserve, run.workers, run.slow, rng)
			if !slices.Equal(got, checked) || !slices.Equal(gotReplayed, replayed) || gotTotal != spent {
				t.Fatalf("%s, %d workers, clock %dx: checked %v, replayed %v, %d units; sequentially %v, %v, %d", name, run.workers, run.slow, got, gotReplayed, gotTotal, checked, replayed, spent)
			}
			if first == nil {
				first = gotCut
			} else if !slices.Equal(gotCut, first) {
				t.Fatalf("%s, %d workers, clock %dx: cuts %v, first run %v", name, run.workers, run.slow, gotCut, first)
			}
		}
		return replayed, first, spent
	}
	// TestReplayRounds' floods (5,350 units in all) under 6,000 with a
	// reserve of 1,000: round 0 spends 2,250 (as without the reserve),
	// round 1 splits the 5,000 - 2,250 over the three floods (916
	// each), and the rounds stop short of 5,000.
	floods := []workTest{{events: 400_000, preds: 10}, {events: 400_000, preds: 10}, {events: 400_000, preds: 10}}
	for i := 0; i < 10; i++ {
		floods = append(floods, workTest{rp: 15, events: 100, preds: 1})
	}
	if _, _, shares, _ := sequentialReserve(floods, 6000, 1400, 100, 1000); !slices.Equal(shares[:2], []int64{0, 916}) {
		t.Errorf("reserve 1,000: shares %v, want [0 916 ...]", shares)
	}
	replayed, cut, total := same("reserve 1,000", floods, 6000, 1400, 100, 1000)
	if total > 5000 || total < 4000 || len(replayed) == 40 {
		t.Errorf("reserve 1,000: %d units charged, %d of 40 predictions replayed; want the rounds to stop short of 5,000", total, len(replayed))
	}
	for _, c := range cut {
		if !strings.Contains(c, "reserve true") || strings.Contains(c, "late true") || strings.Contains(c, "share true") {
			t.Errorf("reserve 1,000: cut %q; want the reserve's", c)
		}
	}
	if len(cut) == 0 {
		t.Errorf("reserve 1,000: no trace cut")
	}
	// Round 0 is not bound by it: under 2,300, round 0 spends 2,250,
	// past the limit less a reserve of 1,000, and replays what it
	// replays with a reserve that leaves no later round.
	_, r0, _, _ := sequentialReserve(floods, 2300, 1400, 100, 2300)
	if got, _, total := same("round 0", floods, 2300, 1400, 100, 1000); !slices.Equal(got, r0) || total <= 1300 {
		t.Errorf("round 0: with a reserve of 1,000 replayed %v (%d units), with one of the whole limit %v", got, total, r0)
	}
	// Costly replays (events 4,000,000: 1,040 units each, 1,140 for
	// the quiet .1): round 0 ends at 3,440 (T0 one replay, T1 two, the
	// cheap tests); with a reserve of 1,600 the round limit is 4,400,
	// and T0.1 would start under it, but its 1,040 would not end under
	// it: no later round starts, though the work charged is under it.
	big := []workTest{{events: 4_000_000, preds: 3}, {events: 4_000_000, preds: 3}}
	for i := 0; i < 4; i++ {
		big = append(big, workTest{rp: 15, events: 100, preds: 1})
	}
	_, cut, total = same("costly replays", big, 6000, 2000, 100, 1600)
	if total != 3440 || len(cut) != 2 {
		t.Errorf("costly replays: %d units charged, cuts %v; want 3,440 and both floods cut by the reserve", total, cut)
	}
	// Random cases: the same outcome as the sequential model.
	for round := 0; round < 8; round++ {
		var tests []workTest
		for i := 0; i < 3+rng.Intn(8); i++ {
			tests = append(tests, workTest{rp: int64(rng.Intn(100)), events: rng.Intn(40_000), preds: rng.Intn(6)})
		}
		limit := int64(300 + rng.Intn(800))
		same(fmt.Sprintf("random %d", round), tests, limit, int64(150+rng.Intn(200)), int64(40+rng.Intn(60)), rng.Int63n(limit/3))
	}
}

// TestHandOver: what the later phases (the drivers) leave of the budget
// goes to the predictions the tests' phase cut, after them
// (replayQueue.handOver): every one cut by the phase's limit, a later
// round's reserve or a share, in order, in rounds under the whole
// budget; the outcome and the work charged are the sequential model's
// with 1, 2 and 4 workers and a 100x clock.
func TestHandOver(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer func() { now, runReplay = time.Now, replayRetrying }()
	rng := rand.New(rand.NewSource(17))
	same := func(name string, tests []workTest, limit, share, least, reserve, other, whole int64) (replayed []string, total int64) {
		t.Helper()
		checked, replayed, _, spent := sequentialHandOver(tests, limit, share, least, reserve, other, whole)
		for _, run := range []struct {
			workers int
			slow    time.Duration
		}{{1, 1}, {2, 1}, {4, 100}} {
			got, gotReplayed, _, gotTotal := workRunHandOver(t, tests, limit, share, least, reserve, other, whole, run.workers, run.slow, rng)
			if !slices.Equal(got, checked) || !slices.Equal(gotReplayed, replayed) || gotTotal != spent {
				t.Fatalf("%s, %d workers, clock %dx: checked %v, replayed %v, %d units; sequentially %v, %v, %d", name, run.workers, run.slow, got, gotReplayed, gotTotal, checked, replayed, spent)
			}
		}
		return replayed, spent
	}
	// TestReplayRounds' floods (5,350 units in all, 40 predictions) in a
	// tests' phase of 4,000 with a reserve of 500: the phase cuts some;
	// the drivers take 300 of a budget of 6,000, and the hand-over
	// replays the rest: all 40, as under one phase of 6,000.
	floods := []workTest{{events: 400_000, preds: 10}, {events: 400_000, preds: 10}, {events: 400_000, preds: 10}}
	for i := 0; i < 10; i++ {
		floods = append(floods, workTest{rp: 15, events: 100, preds: 1})
	}
	_, phase, _, _ := sequentialReserve(floods, 4000, 1400, 100, 500)
	if len(phase) == 40 {
		t.Fatalf("the tests' phase cut nothing; the case does not test the hand-over")
	}
	replayed, total := same("floods", floods, 4000, 1400, 100, 500, 300, 6000)
	t.Logf("floods: %d predictions replayed in the tests' phase, %d with the hand-over, %d units", len(phase), len(replayed), total)
	if len(replayed) != 40 || total > 6000 {
		t.Errorf("floods: %d of 40 predictions replayed, %d units of 6,000", len(replayed), total)
	}
	// A budget that does not cover them all: the hand-over stops where
	// a replay would end past it, and says it was the budget.
	replayed, total = same("short", floods, 4000, 1400, 100, 500, 300, 4800)
	t.Logf("short: %d predictions replayed with the hand-over, %d units", len(replayed), total)
	if len(replayed) == 40 || total >= 4800 || len(replayed) <= len(phase) {
		t.Errorf("short: %d of 40 predictions replayed (%d in the tests' phase), %d units of 4,800", len(replayed), len(phase), total)
	}
	_, _, cut, _ := workRunHandOver(t, floods, 4000, 1400, 100, 500, 300, 4800, 2, 1, rng)
	for _, c := range cut {
		if strings.Contains(c, "share true") || strings.Contains(c, "net true") {
			t.Errorf("short: cut %q; want the budget's", c)
		}
	}
	if len(cut) == 0 {
		t.Errorf("short: no trace cut")
	}
	// Past the budget already: no hand-over.
	if _, _, cut, _ := workRunHandOver(t, floods, 4000, 1400, 100, 500, 3000, 6000, 2, 1, rng); !slices.Equal(cut, []string{"no hand-over"}) {
		t.Errorf("drivers spending the rest: cut %v; want no hand-over", cut)
	}
	// Random cases: the same outcome as the sequential model.
	for round := 0; round < 8; round++ {
		var tests []workTest
		for i := 0; i < 3+rng.Intn(8); i++ {
			tests = append(tests, workTest{rp: int64(rng.Intn(100)), events: rng.Intn(40_000), preds: rng.Intn(6)})
		}
		limit := int64(300 + rng.Intn(800))
		whole := limit + int64(rng.Intn(600))
		same(fmt.Sprintf("random %d", round), tests, limit, int64(150+rng.Intn(200)), int64(40+rng.Intn(60)), rng.Int63n(limit/3), rng.Int63n(200), whole)
	}
}

// TestRaceCharge: what the perturbed recordings' phase leaves under its
// limit for the race detector is its charge for the tests holding a pair
// not proved otherwise: raceRuns runs of raceRunUnits each, per test.
func TestRaceCharge(t *testing.T) {
	cand := func(key string) unorderedCand {
		return unorderedCand{f: Finding{Anomaly: predict.Anomaly{Key: key}}}
	}
	tcs := []*testCheck{
		{test: "TestA", diverged: []unorderedCand{cand("a"), cand("b")}}, // one test, two pairs
		nil,             // not checked
		{test: "TestB"}, // no pair
		{test: "TestC", diverged: []unorderedCand{cand("c")}}, // proved by a replay since
		{test: "TestD", diverged: []unorderedCand{cand("c"), cand("d")}},
	}
	seen := map[string]bool{"c": true}
	if got, want := raceCharge(nil, "p", tcs, seen), int64(2*raceRuns*raceRunUnits); got != want {
		t.Errorf("raceCharge = %d, want %d (TestA and TestD)", got, want)
	}
	if got := raceCharge(nil, "p", tcs[1:4], seen); got != 0 {
		t.Errorf("raceCharge of tests with no open pair = %d, want 0", got)
	}
}

// fakeReplays makes the queue's clock (now) one that only replays move,
// from a fixed start, which it returns: each replay (runReplay, giving
// verdict's answer) sleeps 0–2 ms and moves the clock by slow times that
// plus a millisecond.
func fakeReplays(rng *rand.Rand, slow time.Duration, verdict func(test string, p prediction) replay.Verdict) time.Time {
	var mu sync.Mutex
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := start
	now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return clock
	}
	runReplay = func(ctx context.Context, b *testbin.Build, pkg, test string, p prediction, dir string, opt replay.Options) replay.Verdict {
		mu.Lock()
		d := time.Duration(rng.Intn(3)) * time.Millisecond
		clock = clock.Add(slow * (d + time.Millisecond))
		mu.Unlock()
		time.Sleep(d)
		return verdict(test, p)
	}
	return start
}
