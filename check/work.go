package check

import (
	"fmt"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/record"
)

// A package's budget (Options.Budget) is spent in work units, not in wall
// time (issues 26 and 30): which tests are checked, which predictions are
// replayed, must not depend on how loaded the machine is. On xsync, a
// wall-clock budget checked 32 to 56 of its 127 tests depending on the
// load, and reports of the tests reached only sometimes came and went
// between runs.
//
// Work is charged in the order a sequential check would do it: a test's
// recording, its prediction, its replays in order, then the next test.
// Each charge is a function of what the step did (events recorded, search
// work, the replays a trace needed and their scheduled steps), never of
// the time it took, and a step starts only if what was charged before it
// in that order is under the budget. So the same runs give the same cut,
// however fast the machine ran them.
//
// A work unit is about a millisecond of one core of an idle machine; the
// costs below were fitted on a 2-core machine (see workPerSecond for the
// budget's conversion).
const (
	// recordUnits: a test's run in a recording process (starting it,
	// listing, writing the trace), beside its events.
	recordUnits = 15
	// eventsPerUnit: trace events recorded, read and indexed, or run
	// again by a replay, per unit. Measured in CPU time (user and system,
	// the tool's and its test processes'), which the load stretches
	// little: xsync's traces of a million events took 0.2 to 0.3 s to
	// record and as long to read and index (pecanvet predict, a search of
	// one unit), and a replay of one about 0.2 s beyond its process; at
	// 400 events a unit (fitted on wall times at a load of 20 to 40), each
	// charged 2.6 s, and xsync's check charged its 459,000 units in 127 s
	// of CPU (8.4 minutes of wall time at load 25, 50 s at load 2),
	// leaving 27 to 42 of its 117 tests unchecked.
	eventsPerUnit = 4000
	// searchPerUnit: prediction work units (predict.Stats.Work, a search
	// poll of 4096 steps or a schedule's writing) per unit.
	searchPerUnit = 4
	// replayUnits: a replay's process and its test's run, beside the
	// events of the trace it replays (the test runs them again).
	replayUnits = 40
	// stepsPerUnit: scheduled steps per unit (each a hand-off between
	// goroutines).
	stepsPerUnit = 50
	// quietUnits: what a replay that deadlocks with a goroutine waiting
	// outside recorded operations waits, beside its replayUnits, before
	// it is judged (dynamic/rt's quiet bound, 100 ms of a worker): on
	// ratelimit, 386 of 518 replays ended so, each charged 56 units for
	// 150 to 450 ms.
	quietUnits = 100
	// raceRunUnits: a run of a test with the race detector
	// (confirmUnordered), beside its build.
	raceRunUnits = 50
)

// workPerSecond converts Options.Budget into work units: a budget of d
// is d.Seconds()*workPerSecond units, two cores' worth of milliseconds
// less the time they wait (for a process to start, a test to sleep), so
// that the default 5 minutes covers what 5 minutes of wall time covered
// on a lightly loaded 2-core machine. Checked against the wall-clock
// runs of xsync at load ~2 (EVAL.md), with events then at 400 a unit:
// TestCounterParallelIncrementors (a million events) ran 24 replays in
// its 30 s share, 67,000 units, 2,200 a second; a search stopped by
// predictMaxWork (15,000 search units and a million events, 6,400
// units) took 7.5 s or more. No idle machine was at hand to fit it
// closer (the one it was fitted on ran at a load of 20 to 40): a check
// of xsync with a 1m budget (102,000 units) took 908 s there, about 100
// units a second. With events at 4,000 a unit, xsync's whole check (128
// tests, drivers included) charged 380,000 units of the 459,000 its
// tests may take, in 153 s of CPU (17 minutes of wall time at load 47).
const workPerSecond = 1700

// safetyNet is how many times its budget (and at least minSafetyNet) a
// package's dynamic work may take in wall time before it is cut anyway:
// the work units bound it on a machine as fast as the one they were
// fitted on; the net is for a machine far slower, or stalled, and a cut
// by it says so. It is wide: the machine the units were fitted on ran at
// a load of 20 to 40 on its 2 cores while they were (other checks beside
// it), ten to twenty times slower than idle, and CI runners are loaded
// too; under it the cut is the work's, the same everywhere.
const (
	safetyNet    = 10
	minSafetyNet = 30 * time.Minute
)

// netOf is the safety net of a budget.
func netOf(budget time.Duration) time.Duration { return max(safetyNet*budget, minSafetyNet) }

// workOf is the budget d in work units.
func workOf(d time.Duration) int64 { return int64(d.Seconds() * workPerSecond) }

// recordCost is the charge for recording rt.
func recordCost(rt record.Test) int64 { return recordUnits + int64(rt.Events)/eventsPerUnit }

// predictCost is the charge for predicting from a trace of events with
// search work work (predict.Stats.Work).
func predictCost(events int, work int64) int64 {
	return int64(events)/eventsPerUnit + work/searchPerUnit
}

// replayCost is the charge for one replay of a schedule of steps over a
// trace of events.
func replayCost(events, steps int) int64 {
	return replayUnits + int64(events)/eventsPerUnit + int64(steps)/stepsPerUnit
}

// account is a package's work: what was charged so far, in the sequential
// order, and its limits.
type account struct {
	budget time.Duration // Options.Budget
	units  int64         // the budget in work units
	spent  int64         // charged so far
	net    time.Time     // the wall-clock safety net's deadline
	// keys: the package's site combinations' verdicts, shared by its
	// replay queues (keyVerdicts); nil: each queue's own.
	keys *keyVerdicts
}

func newAccount(budget time.Duration) *account {
	return &account{budget: budget, units: workOf(budget), net: now().Add(netOf(budget))}
}

// netPast reports whether the safety net's deadline has passed.
func (a *account) netPast() bool { return !a.net.IsZero() && now().After(a.net) }

// spentWhy says why a step was cut at limit: the budget's work spent, or
// the safety net (which names itself).
func (a *account) spentWhy(limit int64) string {
	if a.spent >= limit {
		return fmt.Sprintf("budget of %v spent (%d of %d work units)", a.budget, a.spent, limit)
	}
	return a.netWhy()
}

func (a *account) netWhy() string {
	return fmt.Sprintf("wall-clock safety net of %v (%dx the budget of %v, at least %v) reached after %d of the budget's %d work units", netOf(a.budget), safetyNet, a.budget, minSafetyNet, a.spent, a.units)
}

// now is time.Now (a variable for tests: the cut must not depend on it
// but through the safety net).
var now = time.Now

// shareWhy says what a trace's replays' share of budget was: the fixed
// share (shareUnits), or less, its fair part of what was left (fairShare).
func shareWhy(share int64, budget time.Duration) string {
	if share >= shareUnits(budget) {
		return fmt.Sprintf("%v's worth", max(replayShareMin, budget/replayShare))
	}
	return "its part of the budget left over the tests left to check"
}
