package check

import (
	"slices"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/record"
)

// TestWantsPerturbed: a short run of two busy goroutines that gave no
// prediction is recorded again perturbed; a slow one (a test waiting on
// timers), a long one, or one that already gave a prediction is not.
func TestWantsPerturbed(t *testing.T) {
	c := &testCheck{opt: Options{Perturb: 1}}
	thin := record.Test{Active: 2, Events: 500, Wall: 20 * time.Millisecond}
	if !c.wantsPerturbed(thin, false) {
		t.Errorf("thin, fast run: not recorded again")
	}
	slow := thin
	slow.Wall = time.Second
	long := thin
	long.Events = thinPerturb
	for name, rt := range map[string]record.Test{"slow": slow, "long": long} {
		if c.wantsPerturbed(rt, false) {
			t.Errorf("%s run: recorded again", name)
		}
	}
	// A hung run's wall is the hang's detection (5 s), not the test's.
	hung := slow
	hung.Truncated = "hung: every goroutine blocked for 5s (g1.1 blocks in Send (chan send) at poller.go:43)"
	if !c.wantsPerturbed(hung, false) {
		t.Errorf("a run that hung: not recorded again")
	}
	c.predicted, c.undiverged = 1, 1
	if c.wantsPerturbed(thin, false) {
		t.Errorf("a run that gave a prediction: recorded again")
	}
	c.undiverged = 0
	if !c.wantsPerturbed(thin, false) {
		t.Errorf("a run whose every prediction diverged: not recorded again")
	}
	c.found = 1
	if c.wantsPerturbed(thin, false) {
		t.Errorf("a run that proved a prediction: recorded again")
	}
	c.found, c.undiverged = 0, 1
	late := thin
	late.Unstarted = 1
	if !c.wantsPerturbed(late, false) {
		t.Errorf("a run with a goroutine that never ran: not recorded again")
	}
	late.Wall = time.Second
	if c.wantsPerturbed(late, false) {
		t.Errorf("a slow run with a goroutine that never ran: recorded again")
	}
	// Go's TestRaceNestedArrayCopy: 0.55 s copying 8 MB before the
	// child began, nothing shared in the trace.
	bulk := slow
	bulk.BulkBeforeChild = 1
	c = &testCheck{opt: Options{Perturb: 1}}
	if !c.wantsPerturbed(bulk, false) {
		t.Errorf("a slow run with a bulk copy before its child began: not recorded again")
	}
	bulk.Events = thinPerturb
	if c.wantsPerturbed(bulk, false) {
		t.Errorf("a long run with a bulk copy before its child began: recorded again")
	}
}

// TestWantsPerturbedEarlyNotify: a run with a Cond notified before the
// notifier's children began and never waited on (record.Test.EarlyNotify)
// is recorded again whatever it proved and whatever its wall time, early
// too; only its events bound it. ants v2.12.1's TestPoolTuneScaleUp:
// its first run reproduced ants.go:380's av without effect, and beside
// two flood tests at load 35 its own wall was 0.57 s (session 39), so
// main's rule (found == 0, the 250 ms gate) never recorded it again and
// ants.go:539's lost signal came and went with the recording.
func TestWantsPerturbedEarlyNotify(t *testing.T) {
	tune := record.Test{Name: "TestPoolTuneScaleUp", Active: 12, Events: 2718, EarlyNotify: 3,
		Wall: 900 * time.Millisecond, Output: "--- PASS: TestPoolTuneScaleUp (0.57s)\n"}
	for _, c := range []struct {
		name                   string
		found, predicted, undv int
	}{
		{"reproduced an unreported av", 4, 4, 4},
		{"proved nothing", 0, 0, 0},
		{"every prediction diverged", 0, 3, 0},
	} {
		tc := &testCheck{opt: Options{Perturb: 1}, found: c.found, predicted: c.predicted, undiverged: c.undv}
		for _, early := range []bool{true, false} {
			if !tc.wantsPerturbed(tune, early) {
				t.Errorf("%s, early %v: an early notify's run not recorded again", c.name, early)
			}
		}
	}
	// The same run on an idle machine decides the same.
	idle := tune
	idle.Wall, idle.Output = 120*time.Millisecond, "--- PASS: TestPoolTuneScaleUp (0.10s)\n"
	tc := &testCheck{opt: Options{Perturb: 1}, found: 4, predicted: 4, undiverged: 4}
	if !tc.wantsPerturbed(idle, false) {
		t.Errorf("idle: not recorded again")
	}
	// Without the early notify, main's rule: a run that reproduced
	// something is not recorded again, nor a slow one.
	plain := tune
	plain.EarlyNotify = 0
	if tc.wantsPerturbed(plain, false) {
		t.Errorf("no early notify, reproduced: recorded again")
	}
	if (&testCheck{opt: Options{Perturb: 1}}).wantsPerturbed(plain, false) {
		t.Errorf("no early notify, slow: recorded again")
	}
	// The gate is the trace's events, and a test that skipped itself or a
	// check without perturbation is never recorded again.
	long := tune
	long.Events = thinPerturb
	skipped := tune
	skipped.Skipped = true
	for name, rt := range map[string]record.Test{"long": long, "skipped": skipped} {
		if tc.wantsPerturbed(rt, false) {
			t.Errorf("%s run with an early notify: recorded again", name)
		}
	}
	if (&testCheck{}).wantsPerturbed(tune, false) {
		t.Errorf("Perturb 0: recorded again")
	}
}

// TestPerturbable: the tests recorded again are those whose check wants
// it, unchecked ones (nil) left out, and the late count is of those with
// a goroutine that never ran. Early (before any replay) a test with a
// prediction is not among them, so checkTests can start that recording
// beside the replays; once its replays all diverged it is.
func TestPerturbable(t *testing.T) {
	thin := record.Test{Active: 2, Events: 500, Wall: 20 * time.Millisecond}
	late := thin
	late.Unstarted = 1
	predicted := &testCheck{opt: Options{Perturb: 1}, predicted: 1}
	tcs := []*testCheck{{opt: Options{Perturb: 1}}, nil, predicted, {opt: Options{Perturb: 1}}, predicted}
	firsts := []record.Test{thin, thin, thin, late, late}
	idx, n := perturbable(tcs, firsts, true)
	if !slices.Equal(idx, []int{0, 3, 4}) || n != 2 {
		t.Errorf("early: perturbable = %v, %d late; want [0 3 4], 2 late", idx, n)
	}
	if all, _ := perturbable(tcs, firsts, false); !slices.Equal(all, []int{0, 2, 3, 4}) {
		t.Errorf("every replay diverged: %v, want [0 2 3 4]", all)
	}
	predicted.undiverged = 1 // a replay ran as scheduled
	if again, _ := perturbable(tcs, firsts, false); !slices.Equal(again, idx) {
		t.Errorf("after a replay that did not diverge: %v, want %v", again, idx)
	}
	predicted.found = 1 // a replay proved its prediction
	if again, _ := perturbable(tcs, firsts, false); !slices.Equal(again, idx) {
		t.Errorf("after a replay that proved it: %v, want %v", again, idx)
	}
}

// TestPerturbEnv: an odd seed takes the order at go statements farther
// from the first run's: parents first after a run whose parents went on
// with more operations after their children began than before
// (notifyhint's loop, in 2 to 3 first runs of 12 under load, when
// children first only repeated that run), children first otherwise, and
// for a run with a goroutine that never ran; seed 3 the other order, seed
// 5 the farther again. An even seed is the PCT-like perturbation alone.
func TestPerturbEnv(t *testing.T) {
	childFirst := record.Test{RunOnAfter: 20}
	parentFirst := record.Test{RunOnBefore: 20, RunOnAfter: 3}
	late := record.Test{RunOnAfter: 20, Unstarted: 1}
	for _, c := range []struct {
		name  string
		seed  int
		first record.Test
		want  []string
	}{
		{"child first", 1, childFirst, []string{"PECANVET_PERTURB=1", "PECANVET_PARENTS_FIRST=1"}},
		{"parent first", 1, parentFirst, []string{"PECANVET_PERTURB=1"}},
		{"no fork", 1, record.Test{}, []string{"PECANVET_PERTURB=1"}},
		{"unstarted", 1, late, []string{"PECANVET_PERTURB=1"}},
		{"even seed", 2, childFirst, []string{"PECANVET_PERTURB=2"}},
		{"seed 3, the nearer order", 3, childFirst, []string{"PECANVET_PERTURB=3"}},
		{"seed 3 after parents first", 3, parentFirst, []string{"PECANVET_PERTURB=3", "PECANVET_PARENTS_FIRST=1"}},
		{"seed 3, unstarted", 3, late, []string{"PECANVET_PERTURB=3"}},
		{"seed 5", 5, childFirst, []string{"PECANVET_PERTURB=5", "PECANVET_PARENTS_FIRST=1"}},
		// A bulk copy before a child began: seed 1 runs the child first,
		// whatever the other go statements ran on after.
		{"bulk copy", 1, record.Test{RunOnBefore: 256, RunOnAfter: 300, BulkBeforeChild: 1}, []string{"PECANVET_PERTURB=1"}},
		{"seed 3, bulk copy", 3, record.Test{RunOnBefore: 256, RunOnAfter: 300, BulkBeforeChild: 1}, []string{"PECANVET_PERTURB=3", "PECANVET_PARENTS_FIRST=1"}},
		// A notify before a child began: seed 1 runs the child first, so
		// that it reaches its Wait before the notify.
		{"early notify", 1, record.Test{RunOnBefore: 256, RunOnAfter: 300, EarlyNotify: 1}, []string{"PECANVET_PERTURB=1"}},
		{"seed 3, early notify", 3, record.Test{RunOnBefore: 256, RunOnAfter: 300, EarlyNotify: 1}, []string{"PECANVET_PERTURB=3", "PECANVET_PARENTS_FIRST=1"}},
	} {
		if got := perturbEnv(c.seed, c.first); !slices.Equal(got, c.want) {
			t.Errorf("%s: perturbEnv(%d) = %q, want %q", c.name, c.seed, got, c.want)
		}
	}
}
