package check

import (
	"context"
	"fmt"
	"math/rand"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/record"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/replay"
)

// phaseTest is a test of TestEarlyPerturbedBetweenRounds: its trace's
// events, how many predictions it gives, and its search's work units
// (predict.Stats.Work).
type phaseTest struct {
	name   string
	events int
	preds  int
	search int64
}

// phaseRun checks the first runs firsts in one queue under the tests'
// limit and then the perturbed runs perturbed in another, as checkTests
// does: between the first queue's round 0 and its later rounds when
// between is set (checkQueued's between), else after all its rounds
// (main's order before session 41). Predictions are fake (predictOn)
// and every replay diverges after a random wall time. It returns the
// perturbed tests checked, the replays of each phase's predictions, and
// the work charged.
func phaseRun(t *testing.T, firsts, perturbed []phaseTest, budget time.Duration, between bool, workers int, rng *rand.Rand) (checked []string, replayed []string, spent int64) {
	fakeReplays(rng, 1, func(test string, p prediction) replay.Verdict {
		return replay.Verdict{Verdict: replay.Diverged, Message: test + "/" + p.a.Key}
	})
	search := map[string]int64{}
	for _, pt := range append(slices.Clone(firsts), perturbed...) {
		search[pt.name] = pt.search
	}
	predictOn = func(c *testCheck, q *replayQueue, rt record.Test, path string) *queued {
		q.charge(predictCost(rt.Events, search[c.test]))
		var ps []batchPred
		for k := 0; k < rt.Goroutines; k++ {
			ps = append(ps, batchPred{key: fmt.Sprintf("%s.%s.%d", c.test, path, k), site: "1"})
		}
		q.add(c.test, &trace.Trace{Events: make([]trace.Event, rt.Events)}, batchPreds(t, ps), t.TempDir(), 50, replay.Options{})
		return &queued{c: c, flt: &filters{off: true}, path: path}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(workers))
	opt := Options{Budget: budget}
	acct := newAccount(budget)
	limit := acct.units - acct.units/driverShare // as with generated drivers
	rep := &Report{}
	seen := map[string]bool{}
	tcs := map[string]*testCheck{}
	tc := func(name string) *testCheck {
		if tcs[name] == nil {
			tcs[name] = &testCheck{test: name, rep: rep, seen: seen, acct: acct, opt: opt}
		}
		return tcs[name]
	}
	perturbedPhase := func() {
		checkQueued(context.Background(), nil, "p", acct, limit, reserveUnits(budget), opt, seen, rep, func(q *replayQueue, predict func(*testCheck, record.Test, string)) {
			for k, pt := range perturbed {
				q.setLeft(len(perturbed) - k)
				if ok, _ := q.admit(); !ok {
					continue
				}
				rt := record.Test{Events: pt.events, Goroutines: pt.preds}
				q.charge(recordCost(rt))
				checked = append(checked, pt.name)
				predict(tc(pt.name), rt, "p1")
			}
		}, nil)
	}
	var then func() (then func())
	if between {
		then = func() func() { return perturbedPhase }
	}
	checkQueued(context.Background(), nil, "p", acct, limit, reserveUnits(budget), opt, seen, rep, func(q *replayQueue, predict func(*testCheck, record.Test, string)) {
		for k, ft := range firsts {
			q.setLeft(len(firsts) - k)
			if ok, _ := q.admit(); !ok {
				break
			}
			rt := record.Test{Events: ft.events, Goroutines: ft.preds}
			q.charge(recordCost(rt))
			predict(tc(ft.name), rt, "first")
		}
	}, then)
	if !between {
		perturbedPhase()
	}
	for _, f := range rep.Findings {
		replayed = append(replayed, f.Verdict.Message)
	}
	return checked, replayed, acct.spent
}

// TestEarlyPerturbedBetweenRounds: the perturbed recordings asked for
// before any replay (the early ones: ants' TestPoolTuneScaleUp, whose
// children-first trace proves ants.go:539) are checked between the first
// runs' replay round 0 and their later rounds, so that the flood tests'
// share-cut predictions, handed all the budget left by the later rounds,
// cannot leave them unchecked; in main's order (after every round) they
// get only the reserve, and the second is not checked. The outcome is
// the same with one worker or four and replays of random lengths.
func TestEarlyPerturbedBetweenRounds(t *testing.T) {
	defer func() { now, runReplay, predictOn = time.Now, replayRetrying, (*testCheck).predict }()
	budget := 10 * time.Second // 17,000 units: 15,300 for the tests, a reserve of 170
	// Three flood tests, then twenty thin ones: a flood replay charges
	// 40 + 250 units for its events, and their fair shares (the budget
	// over 23 tests left) cut all but two of each's 40 predictions in
	// round 0; the later rounds hand the rest all the budget left.
	firsts := []phaseTest{
		{"TestFloodA", 1_000_000, 40, 0},
		{"TestFloodB", 1_000_000, 40, 0},
		{"TestFloodC", 1_000_000, 40, 0},
	}
	for i := range 20 {
		firsts = append(firsts, phaseTest{fmt.Sprintf("TestThin%d", i), 3_000, 0, 0})
	}
	// Two early perturbed recordings: a thin one whose search charges
	// 1,000 units (searches stop at predictMaxWork's 3,750), more than
	// the reserve, then TestPoolTuneScaleUp's (~2,600 events, 2
	// predictions).
	perturbed := []phaseTest{
		{"TestPerturbedA", 60_000, 3, 4_000},
		{"TestTuneScaleUp", 2_600, 2, 0},
	}
	rng := rand.New(rand.NewSource(41))
	var want []string
	for _, workers := range []int{1, 4, 1, 4} {
		checked, replayed, spent := phaseRun(t, firsts, perturbed, budget, true, workers, rng)
		if !slices.Equal(checked, []string{"TestPerturbedA", "TestTuneScaleUp"}) {
			t.Fatalf("workers %d: perturbed runs checked %v, want both", workers, checked)
		}
		if n := countPrefix(replayed, "TestTuneScaleUp/"); n != 2 {
			t.Errorf("workers %d: TestTuneScaleUp's perturbed predictions replayed %d times, want 2", workers, n)
		}
		limit := workOf(budget) - workOf(budget)/driverShare
		t.Logf("workers %d: %d units charged, %d flood replays", workers, spent, countPrefix(replayed, "TestFlood"))
		if spent > limit {
			t.Errorf("workers %d: %d units charged past the limit %d", workers, spent, limit)
		}
		// The later rounds still gave the flood tests what was left.
		if n := countPrefix(replayed, "TestFlood"); n < 30 {
			t.Errorf("workers %d: %d flood replays, want the later rounds' too (at least 30)", workers, n)
		}
		slices.Sort(replayed)
		if want == nil {
			want = replayed
		} else if !slices.Equal(replayed, want) {
			t.Errorf("workers %d: replayed %v, want %v as with one worker", workers, replayed, want)
		}
	}
	// The scenario is one main's order fails: after every round of the
	// first runs, the perturbed phase has the reserve only.
	checked, _, _ := phaseRun(t, firsts, perturbed, budget, false, 2, rng)
	if slices.Contains(checked, "TestTuneScaleUp") {
		t.Errorf("after all rounds, the perturbed runs checked %v: the scenario does not need the early phase", checked)
	}
}

func countPrefix(ss []string, prefix string) int {
	n := 0
	for _, s := range ss {
		if strings.HasPrefix(s, prefix) {
			n++
		}
	}
	return n
}
