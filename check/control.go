package check

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/replay"
	"github.com/pecanvet/pecanvet/static/driver"
)

// Control replays: is a failed replay the interleaving's doing, or the
// schedule's? A replay holds goroutines at their gates while the schedule
// runs (a goroutine with no step left waits until it ends): a test that
// assumes a goroutine gets somewhere within a sleep, or before the test
// moves a mock clock, fails under any schedule that holds it, whether or
// not the anomaly's events interleave. ratelimit's TestInitial (three
// Takes must register before clk.Add) and go-quartz's TestScheduler (a
// job due in 800 ms must have run after a 1 s sleep) failed so under
// serializable interleavings (issue 26).
//
// So when a violation's only evidence is its effect, its schedule is
// replayed again serialized: the same steps (the same prefix, the same
// goroutines held the same way, the same end), except that the steps the
// remote goroutines run inside the local unit's window move before the
// unit's first event, or after its last — the two serial orders. The
// failure is the delays' if both run to their end and the test fails in
// both, in at least one the same way, with the same messages
// (sameFailure): then the test cannot pass whatever side of the unit the
// remote steps take, and the interleaving adds nothing; the finding has
// no effect and stands or falls by the dependence criterion like any
// other. One serial order failing is
// not enough: a test that fails when the other goroutine's steps all come
// first fails by the order, which the interleaving chose (the PECAN
// paper's Figure 1, pecanfig1), and moving one remote check before the
// unit leaves the remote goroutine's own unit open across it, the
// mirror-image violation (registry). Nor are the failure's places
// enough: a control may still hold another instance of the bug (gauge's
// Reset inside the long call, when the unit is the short call's), which
// fails at the same place with another value (running = -1, not -2). A
// serial control of a real atomicity violation gives the correct result
// and passes. A control that does not run to its end (a lock or channel
// orders the moved steps) proves nothing, and the effect stands; except
// that when the before order deadlocks short of the unit (a moved step
// waits on what the unit releases: singleflight's duplicate caller on
// the pending call), no execution has that order, and the after order,
// the only serial one, decides alone.
//
// A serial order that passes is run once more, and counts as failing
// the same way if that run does (againIfPassed): what happens after the
// schedule's end, where every held goroutine is let go at once, may be
// a race that the same failure wins in some runs only. A serial order
// that still passes leaves one more question: does the interleaving
// fail the test, or did that replay? The schedule fixes the
// interleaving, so it is replayed once more (the repeat): if it runs
// through the unit again and the test passes, the failure did not come
// from what the schedule fixes (controlled).
//
// An explored verdict (replay.Verdict.Explored: the schedule ran up to a
// changed read, then the program ran free, RaceFuzzer-style) is
// controlled the same way, its controls exploring too: a control whose
// read changes (the serial order moves the remote writes, so the unit's
// reads change with them) runs free from there, as the schedule did, and
// counts as run if it went free from a read of the anomaly (ranUnit). A
// real check-then-act's "after" order runs the unit alone and passes
// (divergecta); a failure the held prefix made, go-quartz's job that had
// not run within the test's 1 s sleep ("response is nil", queue.go:166),
// comes back in both orders. Controls that do not explore stop at their
// first changed read and prove nothing, which left every explored
// effect standing.

// againSuffix names a serial order's second run (againIfPassed).
const againSuffix = "-again"

// againIfPassed wraps run, which runs the controls of a schedule whose
// replay v failed: a serial order ("before", "after") that ran its unit
// and passed is run once more, and the second run's verdict stands for
// the order's when it failed with v's very message (sameFailure).
//
// A serial order's pass is one run of what follows its schedule's end,
// where every goroutine it held runs free at once. The old
// startinboxfixed's TestSendThenRestart (session 54's CI) held the first
// process goroutine, with no step left, across the test's Stop and
// Start; whether Start's process goroutine then began beside it was the
// free run's race, and each serial order failed with the schedule's
// very message ("two process goroutines ran at once") in some runs and
// passed in others (4 of 20 control runs passed, at load 12-31). A
// passing order, then a repeat and an unheld control that fail again,
// keep the effect of a failure that the hold alone makes (the likely
// path of that CI report; no run here kept it). A serial order that fails with the schedule's
// very message in any run gives that failure without the interleaving,
// which no serial order of a real atomicity violation's effect does,
// however often it runs: a second run adds evidence of the same kind,
// never against a real effect.
func againIfPassed(v replay.Verdict, run func(name, what string, s *trace.Schedule) (replay.Verdict, bool)) func(name, what string, s *trace.Schedule) (replay.Verdict, bool) {
	return func(name, what string, s *trace.Schedule) (replay.Verdict, bool) {
		cv, ok := run(name, what, s)
		if !ok || name != "before" && name != "after" || !cv.Passed || cv.Panicked || cv.Unended || !ranUnit(cv, s) {
			return cv, ok
		}
		again, ok := run(name+againSuffix, what+", again", s)
		if !ok {
			return replay.Verdict{}, false
		}
		if sameFailure(again, s, v) {
			return again, true
		}
		return cv, true
	}
}

// runControl is replayRetrying, for control replays (a variable for tests).
var runControl = replayRetrying

// wantsControl reports whether f's report rests on its effect alone and
// a control can tell: a reproduced atomicity or atomic-set violation
// whose replay failed with a consequence to compare (a failure message
// or a hang), not in a generated driver (its oracle assumes no timing: a
// failure there is the interleaving's, or the environment's: wantsRepeat).
func (f *Finding) wantsControl() bool {
	p := f.Anomaly.Pattern
	if p == nil || p.Adjacent || p.Lock || p.Leak || p.WG || p.Relock || p.Order || f.Inferred || !f.Reproduced() || !f.Effect() {
		return false
	}
	if f.Verdict.Consequence == "" || strings.HasPrefix(f.Test, driver.Prefix) {
		return false
	}
	return f.Schedule != nil && len(f.Schedule.Anomaly) == len(p.T)
}

// Driver repeats: a generated driver's oracle is its calls' serial
// orders, run in the same process around the concurrent calls (one order
// before them, three after: static/driver), so
// no timing assumption of a test's can fail it; but the state outside
// the receiver can. tally's vendored thrift TServerSocket listens on the
// fixed address 127.0.0.1:9090: in 1 of 3 go vet runs, a replay of the
// driver calling Addr and Open together found the port held, by a
// process outside the replay (another driver of the package, replayed
// or recorded beside it), after its serial orders had found it free, and
// failed ("Addr and Open called together returned [127.0.0.1:9090] and
// [listen tcp 127.0.0.1:9090: bind: address already in use] and left
// IsListening() = false; called one after the other, they returned
// [127.0.0.1:9090] and [<nil>] and left IsListening() = true"). The
// driver's own re-check of the orders after a differing outcome ("changes
// with time") runs after the calls, when that holder may be gone again.
//
// So a driver's finding whose report rests on its effect is replayed once
// more, its schedule in a fresh process, the orders with it, after the
// package's other replays and one repeat at a time (controlItems). The
// schedule fixes the interleaving and the driver's calls do nothing
// else, so a true effect comes back: the same concurrent outcome, again
// one no order gives (drvport's Opens, each check before the other's
// store, fail again on a port free throughout). A repeat that runs the
// schedule at least as far as the replay did and passes shows that the
// failure came from outside the schedule: the finding keeps its
// interleaving and loses its effect (Control), and a driver's finding
// without one is not reported (Finding.WithoutEffect). A repeat that
// fails, or stops short of where the replay got, proves nothing.
// Residual: an outside holder that holds the port again during the
// repeat's calls, and not its orders, still fools it.

// repeatName names the driver repeat's control replay.
const repeatName = "driver-repeat"

// driverRepeat is the Control of a driver finding whose repeat passed.
const driverRepeat = "the generated driver's schedule, replayed again in a process of its own, passes: what its calls' outcome differed by came from outside the schedule (a fixed port, a file, another process), not the interleaving"

// Alone repeats: the same question for a test's finding. pecanvet runs
// a package's recordings, replays and controls in several processes at
// once, all in the package's directory, and tests that keep their state
// at a fixed path or port see each other's: pogreb's tests keep their DB
// at test.db in the package directory, and one replay of TestCompaction
// counted another process's segments there ("compaction_test.go:84:
// expected 2; got 3", compaction.go:138 av, triage.md), its controls
// passing or not as the other processes came and went. So an effect-only
// finding whose controls left its effect standing (wantsControl, no
// Control), when the package ran more than one process at a time, has
// its schedule replayed once more after every other replay and control
// of the package, one at a time (the driver repeats' turn): a repeat
// that passes having run the schedule at least as far as the replay did
// (repeatPasses) shows the failure came from outside the schedule, and
// the effect is withdrawn (the finding then stands or falls by the
// dependence criterion). A repeat that fails again, in any way, or stops
// short, proves nothing, and the effect stands. Residual: a test whose
// state outside the process the schedule cannot fix (another machine's
// port, the wall clock) may pass alone by chance too.

// aloneName names the alone repeat's control replay.
const aloneName = "alone"

// aloneRepeat is the Control of a test's finding whose repeat alone passed.
const aloneRepeat = "its schedule, replayed again with no other process of the package running, passes: the failure came from another of pecanvet's processes running beside it (a fixed file or port the tests share), not the interleaving"

// wantsRepeat reports whether f is a generated driver's finding whose
// report rests on its replay's effect: a reproduced atomicity or
// atomic-set violation or a data race (not one with a locked access,
// which counts without an effect) whose replay failed, panicked or hung.
// A lock-order inversion, a leak, a lost signal and a WaitGroup's early
// Wait are their own proof.
func (f *Finding) wantsRepeat() bool {
	p := f.Anomaly.Pattern
	if !strings.HasPrefix(f.Test, driver.Prefix) || p == nil || p.Lock || p.Leak || p.WG || p.Relock || p.Cond {
		return false
	}
	if f.Inferred || f.Schedule == nil || !f.Reproduced() || !f.Effect() {
		return false
	}
	return !p.Adjacent || !f.lockedAccess()
}

// repeatPasses reports whether c, a repeat of the schedule replay v ran,
// passed after running the schedule at least as far as v: to its end,
// or, v having left it (interrupted, or explored: the program ran free
// from a step on), left at a later step. Left at the same step, the
// free run after it is what v's failure came from, and its other timing
// proves nothing.
func repeatPasses(c, v replay.Verdict) bool {
	if !c.Passed || c.Panicked || c.Unended {
		return false
	}
	if !c.Interrupted && !c.Explored {
		return c.Verdict == replay.Reproduced
	}
	return (v.Interrupted || v.Explored) && c.Step > v.Step
}

// serialControls returns the serial controls of s, a schedule of
// pattern events with threads T and units AR, the local unit being event
// 0's. Before: the remote goroutines' steps from the local goroutine's
// outermost lock still held at the unit's first event (else that event)
// to the unit's last move there, ahead of the unit's critical section,
// so they do not wait on a lock it holds, with the other goroutines'
// steps there that they need (causalPast). After: the remote goroutines'
// steps from the unit's first event on are left out of the schedule, so they run only
// once it has ended and every goroutine runs free (moved after the
// unit's last event, they would wait on a lock the unit still holds while
// the schedule holds the unit); only the local events stay in its
// anomaly line. Each keeps every goroutine's steps in order, so each
// step's occurrence count still holds. None when no remote event falls
// inside the unit.
//
// The after order keeps a remote goroutine's leading region markers in
// the window (the region-begin of the call it makes next) where the
// schedule put them: they read and write nothing, and the unit's
// goroutine then waits at its gate until the remote one gets there, as
// long as the schedule made it wait, so the order changes and the time
// that passed does not. go-quartz's TestScheduler (queue.go:244): the
// schedule held the execution loop between Size and Head until the
// test's 1 s sleep ended (the virtual clock moved on while all waited)
// and DeleteJob ran; the loop then found errCurlJob, due at 800 ms, more
// than OutdatedThreshold late and dropped it as misfired ("0 != 2").
// The after order without the marker released the loop at once: the job
// ran in time, the test passed, and the failure passed for the order's.
func serialControls(s *trace.Schedule, T, AR []int) []*trace.Schedule {
	isLocal, first, last, ok := unitSpan(s, T, AR)
	if !ok {
		return nil
	}
	local := s.Steps[first].G
	remote := map[string]bool{}
	for k, i := range s.Anomaly {
		if isLocal(k) || i <= first || i >= last {
			continue
		}
		g := s.Steps[i].G
		if g == local {
			return nil // another unit of the same goroutine: no serial order to move it to
		}
		remote[g] = true
	}
	if len(remote) == 0 {
		return nil
	}
	// The local goroutine's locks held at first: where they were taken.
	held := map[string][]int{}
	for i := 0; i < first; i++ {
		st := s.Steps[i]
		if st.G != local {
			continue
		}
		switch st.Op {
		case trace.Lock, trace.RLock:
			held[st.Obj] = append(held[st.Obj], i)
		case trace.Unlock, trace.RUnlock:
			if n := len(held[st.Obj]); n > 0 {
				held[st.Obj] = held[st.Obj][:n-1]
			}
		}
	}
	ins := first
	for _, at := range held {
		if len(at) > 0 {
			ins = min(ins, at[0])
		}
	}
	before := &trace.Schedule{Build: s.Build, Pattern: s.Pattern, Steps: make([]trace.Step, 0, len(s.Steps))}
	at := map[int]int{}
	before.Steps = append(before.Steps, s.Steps[:ins]...)
	moved := causalPast(s.Steps, ins, last, local, remote)
	for _, pass := range []bool{true, false} {
		for i := ins; i <= last; i++ {
			if moved[i] == pass {
				at[i] = len(before.Steps)
				before.Steps = append(before.Steps, s.Steps[i])
			}
		}
	}
	before.Steps = append(before.Steps, s.Steps[last+1:]...)
	for _, i := range s.Anomaly {
		if j, ok := at[i]; ok {
			i = j
		}
		before.Anomaly = append(before.Anomaly, i)
	}
	after := &trace.Schedule{Build: s.Build, Pattern: s.Pattern}
	at = map[int]int{}
	acted := map[string]bool{} // remote goroutines past their leading markers
	for i, st := range s.Steps {
		if i >= first && remote[st.G] {
			if acted[st.G] || !marker(st.Op) {
				acted[st.G] = true
				continue
			}
			// A leading region marker stays (see above).
		}
		at[i] = len(after.Steps)
		after.Steps = append(after.Steps, st)
	}
	for k, i := range s.Anomaly {
		if j, ok := at[i]; ok && isLocal(k) {
			after.Anomaly = append(after.Anomaly, j)
		}
	}
	for _, c := range []*trace.Schedule{before, after} {
		c.Changed = anomalyReads(c)
	}
	return []*trace.Schedule{before, after}
}

// unitSpan returns, for the anomaly of s with threads T and atomic
// regions AR (pattern order), whether its k-th event is the unit's (the
// first event's thread and region), and the first and last steps of the
// unit's events; false when s or the pattern does not give them.
func unitSpan(s *trace.Schedule, T, AR []int) (isLocal func(int) bool, first, last int, ok bool) {
	if s == nil || len(s.Anomaly) == 0 || len(s.Anomaly) != len(T) || len(T) != len(AR) {
		return nil, 0, 0, false
	}
	isLocal = func(k int) bool { return T[k] == T[0] && AR[k] == AR[0] }
	first, last = s.Anomaly[0], s.Anomaly[0]
	for k, i := range s.Anomaly {
		if isLocal(k) {
			first, last = min(first, i), max(last, i)
		}
	}
	return isLocal, first, last, true
}

// causalPast returns the steps from ins to last that the before order
// moves ahead of the unit: the remote goroutines' steps, and those the
// schedule runs there that they need (pond's TestPoolWithQueueSizeOne:
// Stop runs in a worker the test goroutine forks inside the unit's
// window; moved alone, its begin came before its fork and the order
// deadlocked at once, which counted as "the remote steps cannot come
// first"). A moved step needs the earlier steps of its goroutine, the
// fork of a goroutine it begins, the last send or close on a channel
// it receives from, the last release of a lock it takes, the last
// Done of a WaitGroup it waits on and the last step of a goroutine it
// joins, all by other goroutines inside the window. They only ever come
// from before it, so one backward sweep closes the set. When the
// closure needs a step of the local goroutine, the remote steps wait on
// the unit itself: no serial order has them first, and only the remote
// goroutines' steps move (the replay then blocks short of the unit, as
// it should). Moving more non-local steps ahead keeps a serial order:
// the unit still runs whole after every moved step, each goroutine's
// steps in their order.
func causalPast(steps []trace.Step, ins, last int, local string, remote map[string]bool) map[int]bool {
	moved := map[int]bool{}
	need := map[string]int{} // goroutine → its latest step that moved steps need
	// latest returns the last step before i, from ins on, of another
	// goroutine than g that matches, or -1.
	latest := func(i int, g string, match func(trace.Step) bool) int {
		for j := i - 1; j >= ins; j-- {
			if steps[j].G != g && match(steps[j]) {
				return j
			}
		}
		return -1
	}
	// next returns the first step after i, up to last, of another
	// goroutine than g that matches, or -1.
	next := func(i int, g string, match func(trace.Step) bool) int {
		for j := i + 1; j <= last; j++ {
			if steps[j].G != g && match(steps[j]) {
				return j
			}
		}
		return -1
	}
	for changed := true; changed; {
		changed = false
		for i := last; i >= ins; i-- {
			st := steps[i]
			if n, ok := need[st.G]; moved[i] || !remote[st.G] && (!ok || n < i) {
				continue
			}
			if st.G == local {
				// The remote steps wait on the unit's goroutine.
				moved = map[int]bool{}
				for j := ins; j <= last; j++ {
					moved[j] = remote[steps[j].G]
				}
				return moved
			}
			moved[i] = true
			changed = true
			if n, ok := need[st.G]; !ok || n < i {
				need[st.G] = i
			}
			var deps []int
			switch st.Op {
			case trace.Begin:
				deps = append(deps, latest(i, st.G, func(x trace.Step) bool { return x.Op == trace.Fork && x.Obj == st.G }))
			case trace.Recv:
				deps = append(deps, latest(i, st.G, func(x trace.Step) bool { return (x.Op == trace.Send || x.Op == trace.Close) && x.Obj == st.Obj }))
			case trace.Send:
				// An unbuffered send waits for its receiver.
				deps = append(deps, next(i, st.G, func(x trace.Step) bool { return x.Op == trace.Recv && x.Obj == st.Obj }))
			case trace.Lock, trace.RLock:
				deps = append(deps, latest(i, st.G, func(x trace.Step) bool {
					return x.Obj == st.Obj && (x.Op == trace.Unlock || st.Op == trace.Lock && x.Op == trace.RUnlock)
				}))
			case trace.WGWait:
				deps = append(deps, latest(i, st.G, func(x trace.Step) bool { return x.Op == trace.WGDone && x.Obj == st.Obj }))
			case trace.Join:
				deps = append(deps, latest(i, st.G, func(x trace.Step) bool { return x.G == st.Obj }))
			}
			for _, d := range deps {
				if d < 0 {
					continue
				}
				if n, ok := need[steps[d].G]; !ok || n < d {
					need[steps[d].G] = d
				}
			}
		}
	}
	return moved
}

// marker reports whether op is a region marker: a step that reads and
// writes nothing of the program.
func marker(op trace.Op) bool { return op == trace.RegionBegin || op == trace.RegionEnd }

// anomalyReads lists the reads among c's anomaly events as changed
// (trace.Change, the write unknown): the steps after which a control
// that explores may run free when its goroutine leaves the schedule's
// path (dynamic/rt lets only a changed read of the anomaly do so).
// Moving the remote steps to one side of the unit changes what the
// unit's reads see, or gives back what the schedule had changed: which
// one, the schedule's steps do not say (they are not the recording), and
// either way a path the serial order picks is that order's doing, as a
// control's divergence inside the unit is (ranUnit).
func anomalyReads(c *trace.Schedule) []trace.Change {
	var out []trace.Change
	for _, i := range c.Anomaly {
		if i >= 0 && i < len(c.Steps) && c.Steps[i].Op.Reads() {
			out = append(out, trace.Change{Read: i, Write: -1})
		}
	}
	slices.SortFunc(out, func(a, b trace.Change) int { return a.Read - b.Read })
	return out
}

// sameFailure reports whether control replay c, of control schedule cs,
// ran its schedule and failed as replay v did: both panicking or
// neither, with the same messages at the same places (failures), numbers
// included. A schedule whose test fails at a place more than its
// control's fails there by the interleaving (a lost update that breaks
// the final count besides an early check the held goroutine breaks in
// both), and one that fails at the same place with another value breaks
// it more (or otherwise) than the control.
//
// A control in which the local goroutine takes another path inside its
// unit counts as run: a serial order changes what the unit reads (a CAS
// that swaps where the schedule's failed, a first request where the
// schedule's found another's, another state struct behind a pointer),
// which is the serial order's doing, not a step the control failed to
// place. Everything before the unit ran as scheduled, the program ran on
// free (the serial orders explore; an interrupted run goes on too), and
// its failure is compared. A control that the runtime ended at such a
// divergence has no failure to compare (ranUnit).
func sameFailure(c replay.Verdict, cs *trace.Schedule, v replay.Verdict) bool {
	if c.AsBaseline || c.Passed && !c.Panicked || !ranUnit(c, cs) {
		return false
	}
	return c.Panicked == v.Panicked && failures(c.Consequence) == failures(v.Consequence)
}

// sameChecks reports whether control replay c, of control schedule cs,
// ran its schedule and failed its test at exactly the checks where replay
// v failed, whatever values they printed (places).
func sameChecks(c replay.Verdict, cs *trace.Schedule, v replay.Verdict) bool {
	if c.AsBaseline || c.Unended || c.Passed || c.Panicked || v.Panicked || !ranUnit(c, cs) {
		return false
	}
	p := places(v.Consequence)
	return p != "" && places(c.Consequence) == p
}

// ranUnit reports whether replay c of schedule cs ran it to its end, or
// until the local goroutine took another path inside its unit and the
// program then ran free (interrupted; see sameFailure), or, exploring,
// went free after a changed read of the anomaly. A divergence or a step
// on another object that ended the replay is no run.
func ranUnit(c replay.Verdict, cs *trace.Schedule) bool {
	if c.Verdict == replay.Reproduced && !c.Interrupted && !c.Explored {
		return true
	}
	if c.Explored {
		// Free from step c.Step on, after a changed read of the anomaly
		// (c.Changed: dynamic/rt explores only from one): the serial
		// order ran as scheduled up to a read whose value it changed,
		// and the path that value picks is the order's doing. In the
		// "before" order that may be a remote read ahead of the unit
		// (go-quartz's loop, popping before the push it had seen).
		return c.Changed > 0 && c.Changed < c.Step
	}
	switch c.Verdict {
	case replay.Reproduced:
	case replay.Diverged, replay.WrongObject:
		if !c.Interrupted {
			// The runtime ended the process at the divergence
			// (dynamic/rt's exitPruned): its "test fails" is that end,
			// not the program's.
			return false
		}
	default:
		return false
	}
	if cs == nil || len(cs.Anomaly) == 0 {
		return false
	}
	first := cs.Anomaly[0] // the unit's first event: event 0 is local, and the first of the pattern
	return c.Goroutine == cs.Steps[first].G && c.Step-1 >= first
}

// unitWaits is controlled's reason when neither serial order can run
// because the unit waits on the remote steps (waitsInUnit). A unit never
// spans a blocking point; had the trace shown this one, the region would
// have ended there and no violation been predicted across it. So the
// finding falls by the dependence criterion too (needsJudging): the state
// between its events is one the unit stops in, waiting, not an
// intermediate state of an atomic unit.
const unitWaits = "neither serial order can run: the other goroutines' steps cannot all come before the unit, and the unit, held without them, blocks outside recorded operations before its last event: it waits on them, so it spans a blocking point and no atomicity is expected of it"

// waitsInUnit reports whether control replay c of the after order cs
// deadlocked inside its unit with the unit's own goroutine blocked in
// uninstrumented code (Verdict.Outside): the order holds the remote
// goroutines until the unit's last event, every other goroutine runs as
// scheduled, so what the unit waits for can come only from the held
// remote steps, through something the trace does not show (an io.Pipe,
// a socket). A deadlock on a recorded operation (a lock, a channel) is
// not taken: the region splitter sees those, and a lock wait may be the
// order's own artifact.
func waitsInUnit(c replay.Verdict, cs *trace.Schedule) bool {
	if c.Verdict != replay.Deadlock || !c.Outside || c.Unstarted || cs == nil || len(cs.Anomaly) == 0 {
		return false
	}
	first, last := slices.Min(cs.Anomaly), slices.Max(cs.Anomaly)
	if first < 0 || last >= len(cs.Steps) {
		return false
	}
	i := c.Step - 1 // the step that could not come (its goroutine did not get there)
	if i <= first || i > last {
		return false
	}
	g := cs.Steps[first].G
	return cs.Steps[i].G == g && (c.Goroutine == "" || c.Goroutine == g)
}

// pointer is an address as Go prints one: 0x and at least 6 hex digits.
var pointer = regexp.MustCompile(`\b0x[0-9a-f]{6,}\b`)

// duration is a time.Duration as Go prints one ("24.9ms", "1.2s",
// "350µs", "3m2s", "-5ms"): a number with a unit, or several run
// together, standing alone (not part of a word: "v2s", "10msgs").
var duration = regexp.MustCompile(`(^|[^\w.])-?(?:\d+(?:\.\d+)?(?:ns|us|µs|μs|ms|s|m|h))+\b`)

// failures is a consequence's failed assertions ("x_test.go:12: got 1,
// want 2"), sorted, once each, addresses and durations masked, so that
// two runs whose goroutines report in another order compare equal, and
// so do two that measured another time (lossyconn's "scheduled recovery
// delay was not applied: elapsed=24.9ms" in a replay, 18ms in a serial
// order: a wall-clock reading, which a replay's holds move); a hang's blocked
// places without the goroutines' names or the time waited (in a serial
// order another of three Takes may be the one left asleep on the mock
// clock, at the same place); a panic's message as it is.
func failures(c string) string {
	if rest, ok := strings.CutPrefix(c, "the test hangs: "); ok {
		var ps []string
		for _, m := range blockedAt.FindAllStringSubmatch(rest, -1) {
			ps = append(ps, m[1])
		}
		slices.Sort(ps)
		return "the test hangs at " + strings.Join(slices.Compact(ps), " ")
	}
	rest, ok := strings.CutPrefix(c, "test fails: ")
	if !ok {
		return c
	}
	// A pointer a failure prints (testify's %#v of a channel or a func,
	// "(*T)(0xc000123450)") is where the allocator put it that run.
	rest = pointer.ReplaceAllString(rest, "0x…")
	rest = duration.ReplaceAllString(rest, "${1}…s")
	fs := strings.Split(rest, "; ")
	slices.Sort(fs)
	return strings.Join(slices.Compact(fs), "; ")
}

// places is where a test failure's assertions failed ("a_test.go:12
// b_test.go:30", sorted, once each), or "" when c is not a test failure
// or one of its messages has no place.
func places(c string) string {
	rest, ok := strings.CutPrefix(c, "test fails: ")
	if !ok {
		return ""
	}
	var ps []string
	for _, m := range strings.Split(rest, "; ") {
		p := failPlace.FindString(m)
		if p == "" {
			return ""
		}
		ps = append(ps, p)
	}
	slices.Sort(ps)
	return strings.Join(slices.Compact(ps), " ")
}

// timerHang reports whether consequence c is a hang in which some
// goroutine waits where only a timer or I/O could still wake it: on a
// channel outside recorded operations (dynamic/rt's quiescent says so),
// such as a mock clock's.
func timerHang(c string) bool {
	rest, ok := strings.CutPrefix(c, "the test hangs: ")
	return ok && strings.Contains(rest, "only a timer or I/O could still wake")
}

// blockedAt is a hang's goroutine and where it waits: "g1.1.2 chan
// receive at clock.go:194", the place in the group.
var blockedAt = regexp.MustCompile(`\bg[\d.]+ ([^;:]*? at [\w.-]+\.go:\d+)`)

// controlled runs the controls of a schedule s whose replay v failed,
// with run (false: stopped), and says why the failure is not the
// interleaving's, or "". First the serial controls cs: if both fail as v
// did (or the before order blocks and the after one fails as v did), the
// failure does not depend on where the remote steps go. Else,
// if one passed, s again: the schedule fixes the interleaving, so a
// failure that is the interleaving's comes back; if s runs through its
// unit again and the test passes, the failure was the replay's timing
// (go-quartz's TestScheduler: a job due in 800 ms had not run after a
// 1 s sleep in one replay, and had in the next). Last, s with the
// goroutines it names no step of running free (unheld): the same
// interleaving, without the schedule's hold on the rest.
//
// recheck says the unit re-reads under a lock what it read before
// taking it, between the anomaly's events (predict.Anomaly.Recheck or
// Reread): then
// the "before" order failing as s did is enough. The re-read sees the
// remote write, as it would had the write come before the unit, and
// decides on it; a failure that order shows too, with the same messages
// and values, is that order's (pond's TestPoolWithQueueSizeOne: Stop
// before the fourth Submit, which the test's 10 ms sleeps exclude in a
// run but the replay's hold does not), not the interleaving's. Without
// a re-check, a failure of the "before" order is no excuse: the order
// may itself be the bug's (the PECAN paper's Figure 1).
//
// overrun (nil: none) says whether a schedule runs a test's sleep out
// ahead of work another of the anomaly's goroutines did during it
// (overrunsSleep): when s does, a serial order that does too and fails
// the same way decides alone (see sleepSame below), so the after order
// runs even when the before one passed.
func controlled(cs []*trace.Schedule, release *trace.Schedule, ahead int, s *trace.Schedule, v replay.Verdict, baseline string, recheck bool, overrun func(*trace.Schedule) bool, run func(name, what string, s *trace.Schedule) (replay.Verdict, bool)) string {
	overruns := overrun != nil && overrun(s)
	// ahead (timerPastSleep; -1: none) counts only at a fire before the
	// unit, in the steps the serial orders share with s.
	if len(s.Anomaly) == 0 || ahead >= slices.Min(s.Anomaly) {
		ahead = -1
	}
	// firedAhead reports whether a control fired the timer there too: at
	// step count ahead, or from fireSince on when ahead's step receives
	// from a timer's channel.
	since := fireSince(s, ahead)
	firedAhead := func(fired []int) bool {
		return slices.ContainsFunc(fired, func(f int) bool { return f >= since && f <= ahead })
	}
	timerSame := false
	sleepSame := false
	same, failed, blocked := 0, 0, 0
	passes, waits := false, false
	var beforeSame, afterOther bool
	var beforeV replay.Verdict
	samePlaces := places(v.Consequence) != "" && !v.Panicked
	afterPassed := false
	// releaseSame runs the release order (releaseOrder) and reports
	// whether it failed with the schedule's very message, the unit whole
	// on its own run; false for ok when the check was stopped.
	releaseSame := func() (same, ok bool) {
		rv, ok := run(releaseName, "the other goroutines' steps right after the unit releases its locks", release)
		return ok && rv.Verdict == replay.Reproduced && !rv.Interrupted && !rv.Explored && sameFailure(rv, release, v) && !straddlesOf(rv.Trace, release, s), ok
	}
	for k, c := range cs {
		order := [...]string{"before", "after"}[k]
		cv, ok := run(order, "the other goroutines' steps "+order+" the unit", c)
		if !ok {
			return ""
		}
		samePlaces = samePlaces && !cv.Panicked && places(cv.Consequence) == places(v.Consequence)
		// The same failure, values and all, is a serial outcome: whether
		// the order is serial is judged on its own run (straddlesRun).
		// The same checks with other values are not, when the unit
		// mixed two states (pool's TestBorrowThenSetFactory: "db2 cannot
		// activate a connection of db1" in the schedule, "from:db2" with
		// SetFactory first; linkedlist's lost node "[1 2 4]", "[1 2 4 3]"
		// with the late append last): those lost their effect when the
		// run judged the split, and keep the schedules' judgment, which
		// counts a call open at the schedule's end as split, whole
		// across its blocking points (straddlesCall: gauge's -1 in both
		// orders, the long call's Add(1) and Add(-1) around the Reset,
		// against the schedule's -2).
		if overruns && overrun(c) && (sameFailure(cv, c, v) && !straddlesOf(cv.Trace, c, s) || sameChecks(cv, c, v) && !straddlesCall(c, s)) {
			sleepSame = true
		}
		if ahead >= 0 && sameFailure(cv, c, v) && firedAhead(cv.Fired) && !straddlesOf(cv.Trace, c, s) {
			timerSame = true
		}
		afterOther = k == 1 && overruns && overrun(c) && sameChecks(cv, c, v) && !sameFailure(cv, c, v)
		switch {
		case sameFailure(cv, c, v):
			same++
			if k == 0 {
				beforeSame, beforeV = true, cv
			}
		case ranUnit(cv, c) && (!cv.Passed || cv.Panicked) && !cv.Unended:
			// (Killed at the time bound, a free run above all, says
			// nothing of the order.)
			failed++
		case k == 0 && cv.Verdict == replay.Deadlock && !ranUnit(cv, c):
			// The remote steps cannot all come first: one waits on
			// what the unit releases (a duplicate caller waiting on
			// singleflight's pending call, which its owner's unit
			// marks done), so the schedule blocks short of the unit.
			// No execution has that order; the other one is the only
			// serial order left to compare with.
			blocked++
			continue
		case k == 1 && blocked == 1 && waitsInUnit(cv, c):
			// Neither serial order can run: the remote steps cannot
			// come first (above), and the unit cannot end without
			// them either (waitsInUnit). The interleaving is forced,
			// so the failure tells nothing of atomicity.
			waits = true
			continue
		default:
			// Any order that passed (the after order now runs whenever
			// it overruns a sleep, after a before order that passed).
			passes = passes || cv.Passed && !cv.Panicked
			afterPassed = k == 1 && cv.Passed && !cv.Panicked
		}
		if same+failed <= k-blocked && !(overruns && k+1 < len(cs) && overrun(cs[k+1])) && !(ahead >= 0 && k+1 < len(cs)) {
			break // this order neither failed as v did nor failed otherwise
		}
	}
	if !sleepSame && afterOther && release != nil && overrun(release) {
		// The after order failed at the schedule's checks with other
		// values, its remote steps run free past the schedule's end
		// (releaseOrder): run them right after the unit instead. The
		// very message then counts as the sleep's, the unit whole on
		// that order's own run, as for the other orders above.
		same, ok := releaseSame()
		if !ok {
			return ""
		}
		sleepSame = same
	}
	if blocked == 1 && afterPassed && release != nil {
		// The after order is the only serial one, and it passed with
		// the remote steps left to the free run past the schedule's
		// end, racing what the local goroutine does after the unit:
		// goburrow's TestExpireAfterWrite (policy.go:71 av) checks
		// that Get returned the old value although Get had started the
		// refresh goroutine whose steps the unit's window holds; the
		// after order passed or failed as the free run fell (2 of 3
		// runs passed). The release order fixes those steps right
		// after the unit, as the schedule's own tail has them: failing
		// with the schedule's very message, the unit whole, it is a
		// serial order that fails the same way, as for the after order
		// above.
		same, ok := releaseSame()
		if !ok {
			return ""
		}
		if same {
			return "the only serial order that can run, the other goroutines' steps after the unit, fails the same way when they run right after it"
		}
	}
	if waits {
		// logrus's TestWriterSplitNewlines (triage.md writer_test.go:53):
		// the unit is the goroutine scanning an io.Pipe the test writes
		// to, and its first and last writes of the test's buffer straddle
		// every pipe read. A unit never spans a blocking point; this one
		// blocks in code the trace does not show (the standard library's
		// pipe), so no region boundary split it.
		return unitWaits
	}
	if len(cs) > 0 && same+blocked == len(cs) && same > 0 {
		if blocked > 0 {
			// gcache's TestLoaderExpireFuncWithExpire: a loaded value
			// expires after 200 ms on the real clock, which a replay
			// holding a thousand goroutines overruns in any order.
			return "the only serial order that can run, the other goroutines' steps after the unit, fails the same way"
		}
		return "both serial orders, the other goroutines' steps before the unit and after it, fail the same way"
	}
	if recheck && beforeSame {
		return "the unit re-checks under a lock what it read before, and the test fails the same way when the other goroutines' steps come before the unit, whose re-read then sees them as the schedule's did"
	}
	if len(cs) > 0 && same > 0 && same+failed == len(cs) {
		// The test cannot pass with the remote steps on either side of
		// the unit (ratelimit: a Take left asleep on the mock clock in
		// one order, the count check failing in the other).
		return "both serial orders fail, one the same way"
	}
	if len(cs) > 0 && same+failed == len(cs) && timerHang(v.Consequence) {
		// The schedule hung where only a timer or I/O could still wake
		// a goroutine, and the test fails in both serial orders: the
		// held schedule breaks it whatever the order, and a wait on a
		// clock is what holding a goroutine makes endless (ratelimit's
		// Take, held at a gate after startWg.Done while the test moved
		// its mock clock, then asleep on a clock nobody moves again;
		// both controls failed at the timestamps check instead). A hang
		// of the interleaving's own, a lost wake-up or a deadlock, has
		// every goroutine blocked on what no timer can end, and stands.
		return "both serial orders fail too, and the schedule's hang waits on what only a timer or I/O could end, which holding a goroutine past the clock's move makes endless"
	}
	if len(cs) == 2 && same+failed == len(cs) && samePlaces && places(baseline) == places(v.Consequence) {
		// go-quartz's TestScheduler_PauseResume counts the runs of a
		// 10 ms job after a 55 ms sleep: its recorded run failed the
		// count ("8 != 10"), the schedule too ("7 != 10"), and so do
		// both serial orders, each with its own count. A failure the
		// interleaving makes comes back with the schedule's values or
		// not at all in a serial order (gauge: -1, not -2, with the bug
		// held in the control); one that every run shows at the same
		// check, with or without a schedule, is the test's timing.
		return "the test fails at the same check (" + places(v.Consequence) + ") in its recorded run, without the schedule, and in both serial orders, with other values: what it counts there follows the timing, not the interleaving"
	}
	if sleepSame {
		// sturdyc's TestGetOrFetchBatchDeletesRecordsThatHaveBeenRemovedAtTheSource
		// sleeps 10 ms for a background refresh to delete two records,
		// then counts them: the schedule held the refresh past the sleep
		// (its deletes inside the count's unit), and so did the serial
		// order that runs them after the count, which failed alike.
		// go-cron's TestObservabilityHooks_JobName sleeps 50 ms for the run
		// loop to arm its timer, then advances its fake clock: the
		// schedule held the loop between reading the clock and arming the
		// timer, the serial order with the Advance before both failed alike
		// ("got ''"). The serial order may print other values at those
		// checks (sturdyc's message counts again, after the refresh in the
		// schedule, before it in the serial order): a check that fails
		// whenever the goroutine is late witnesses the lateness, whatever
		// it prints. The failure needs only the goroutine to be later than
		// the test's sleep, with the unit whole: a test's assumption about
		// time, which no Go program guarantees, not the interleaving. A
		// real atomicity violation whose test sleeps so fails in the
		// interleaving alone (a lost update gives a count no serial order
		// gives), and a sleep in the program itself (pecanfig1's Second)
		// is the program's order, not a test's, and does not count.
		// "The unit whole" is judged on the serial order's own replay
		// (straddlesRun): what the other goroutines' open calls did
		// there, past the schedule's end, not what they were recorded
		// doing.
		return "the test sleeps for another goroutine's work, the schedule held that goroutine past the sleep, and a serial order that holds it past the sleep too, the unit whole, fails the same way: the failure follows the test's timing, not the interleaving"
	}
	if timerSame {
		// asynccache's TestGetOK: the after order, the refresh's
		// Store whole before the test's Get, fails with the schedule's
		// message, and needs the shared ticker's tick ahead of a Get
		// the test made 0.5 s before the tick was due: no run that
		// keeps the test's timing has that order. A real atomicity
		// violation's serial order passes, whatever the clock did.
		return "the test sleeps, then checks what it sees before a timer of the program is due; the schedule held it at a gate while the clock moved past that timer, and a serial order that holds it there too, the unit whole, fails the same way: the failure follows the test's timing, not the interleaving"
	}
	if passes {
		if len(cs) == 2 && beforeSame && heldOverTimer(s, cs[0], v, beforeV) {
			// Only "after" passed (passes is the last order's), and it
			// alone does not hold the unit's goroutine while the clock
			// fires.
			return "the test fails as the schedule did when the other goroutines' steps come before the unit, and passes when they come after it; both failing replays held the unit's goroutine while a timer of the program fired, and the passing one did not, so the failure follows the time the hold let pass, not the order"
		}
		rv, ok := run("repeat", "the same schedule again", s)
		if !ok {
			return ""
		}
		if ranUnit(rv, s) && rv.Passed && !rv.Panicked {
			return "a serial order passes, and so does the same schedule replayed again"
		}
	}
	// The schedule holds every goroutine it names no step of (one the
	// anomaly does not need: the prediction left its events out) from
	// its first gate to the schedule's end, however long that takes on
	// the virtual clock. go-quartz's TestScheduler (queue.go:244): the
	// loop started errCurlJob's run at its 800 ms tick, the schedule
	// held that goroutine while the clock moved past the test's 1 s
	// sleep, and once free it raced the test's check of the job's
	// status ("0 != 2"); a serial order failed so too, in some replays.
	// Replayed once more with those goroutines free from the anomaly's
	// first step on (before it, held as they were, so that the prefix
	// runs as the schedule's did), the scheduled steps keep their order
	// (each is checked, and a divergence proves nothing here): if the
	// test then passes, the interleaving was there and the failure was
	// not, so it followed the hold. This needs no
	// serial order: in those replays, too, a timer firing at another step
	// than in the schedule's made the loop take another path ahead of the
	// unit, and a control that does not reach its unit proves nothing.
	// A replay that does not run its schedule through proves nothing
	// either way (go-quartz's: a timer of the program fired a few steps
	// off, ahead of the unit, and the loop took another path: 2 of 4
	// tries at load 40), so it is tried up to three times.
	for _, name := range []string{unheldName, unheldName + "-again", unheldName + "-again2"} {
		fv, ok := run(name, "the same schedule, the goroutines it names no step of running free", s)
		if !ok {
			return ""
		}
		if sameRun(fv, v) {
			if fv.Passed && !fv.Panicked && unheldApartOf(fv.Trace, s, slices.Min(s.Anomaly)) {
				return "the same schedule passes when the goroutines it names no step of run free instead of waiting for its end: the failure follows their hold, not the interleaving"
			}
			break
		}
	}
	return ""
}

// straddlesOf is straddlesRun (a variable for tests).
var straddlesOf = straddlesRun

// unheldApartOf is unheldApart (a variable for tests).
var unheldApartOf = unheldApart

// unheldApart reports whether, in the unheld control's trace (path) of
// schedule s, whose unscheduled goroutines ran free from step from on,
// none of their events up to the schedule's last step conflicts with a
// scheduled goroutine's event from step from on: none touches an object
// such an event wrote or synchronized on, and none writes or
// synchronizes on one such an event read. Their events then commute
// with the schedule's window, and the control is, event for event, a
// run that did the schedule first and them after it, as the schedule's
// own replay did, in another timing of its free part. Without this the
// control would be unsound: a goroutine that consumes what the anomaly
// corrupts (not scheduled: the anomaly does not need its events) would
// run ahead of the corruption, and the test pass.
//
// One conflict is allowed: a write or synchronization of a free
// goroutine, before the window's first event on that object, when every
// event of the window on it is at a _test.go site and it is none of the
// anomaly's objects. The test's own check then read what the held
// goroutine wrote, which the hold made late; no program event of the
// window met it, so what the anomaly's steps did is the schedule's.
// ttlcache's TestCache_TestTouch: the expiration callback, started by
// the loop's cleanjob and not scheduled, sets the test's `expired` under
// the test's lock; the schedule held it past the test's check
// (cache_test.go:214, "expected true") and the test's reset (:218), so
// it also failed the next check (:228), and with it free the test passes.
func unheldApart(path string, s *trace.Schedule, from int) bool {
	if path == "" || s == nil || from < 0 || from >= len(s.Steps) {
		return false
	}
	tr, err := trace.ReadFile(path, trace.ReadOptions{Lenient: true})
	if err != nil {
		return false
	}
	name := tabName
	proj := map[string]bool{}
	for _, st := range s.Steps {
		proj[st.G] = true
	}
	pos := schedulePositions(tr, s)
	hi := slices.Max(pos)
	lo := pos[from]
	if lo < 0 || hi < lo {
		return false
	}
	objOf := func(e trace.Event) string { return eventObj(tr, e) }
	anomalyObj := map[string]bool{}
	for _, i := range s.Anomaly {
		if i >= 0 && i < len(s.Steps) {
			anomalyObj[s.Steps[i].Obj] = true
		}
	}
	wrote, read := map[string]bool{}, map[string]bool{}
	firstAt := map[string]int{}   // the window's first event on an object
	testOnly := map[string]bool{} // every window event on it at a _test.go site
	for k := lo; k <= hi; k++ {
		e := tr.Events[k]
		if !proj[name(tr.Goroutines, e.G)] {
			continue
		}
		if o := objOf(e); o != "" {
			if _, ok := firstAt[o]; !ok {
				firstAt[o], testOnly[o] = k, true
			}
			testOnly[o] = testOnly[o] && testSite(tr.Site(e))
			if e.Op == trace.Read || e.Op == trace.AtomicLoad {
				read[o] = true
			} else {
				wrote[o] = true // a write, or a synchronization
			}
		}
	}
	for k := 0; k <= hi; k++ {
		e := tr.Events[k]
		if proj[name(tr.Goroutines, e.G)] {
			continue
		}
		o := objOf(e)
		if o == "" {
			continue
		}
		isRead := e.Op == trace.Read || e.Op == trace.AtomicLoad
		if !wrote[o] && !(read[o] && !isRead) {
			continue
		}
		if at, ok := firstAt[o]; ok && !isRead && k < at && testOnly[o] && !anomalyObj[o] {
			continue // the test's own check of what a held goroutine writes
		}
		return false
	}
	return true
}

// tabName is tab[i], or "" when i is out of range (trace.NoIndex).
func tabName(tab []string, i int32) string {
	if i < 0 || int(i) >= len(tab) {
		return ""
	}
	return tab[i]
}

// eventObj is the name of the object e reads, writes or synchronizes
// on in tr, or "" for an event on none.
func eventObj(tr *trace.Trace, e trace.Event) string {
	switch e.Op {
	case trace.Fork, trace.Join, trace.Begin, trace.End, trace.RegionBegin, trace.RegionEnd, trace.Sleep:
		return ""
	}
	return tabName(tr.Objects, e.Obj)
}

// schedulePositions maps each step of s to the index of its event in
// tr, a replay's trace of s, or -1: each scheduled goroutine's events
// match its steps in order (operation, site and occurrence count) until
// it leaves the schedule.
func schedulePositions(tr *trace.Trace, s *trace.Schedule) []int {
	proj := map[string][]int{}
	for i, st := range s.Steps {
		proj[st.G] = append(proj[st.G], i)
	}
	next := map[string]int{}
	occ := map[string]int{}
	pos := make([]int, len(s.Steps))
	for i := range pos {
		pos[i] = -1
	}
	for k, e := range tr.Events {
		g := tabName(tr.Goroutines, e.G)
		mine, ok := proj[g]
		if !ok || next[g] >= len(mine) {
			continue
		}
		site := tabName(tr.Sites, e.Site)
		key := g + " " + e.Op.String() + " " + site
		occ[key]++
		st := s.Steps[mine[next[g]]]
		if st.Op != e.Op || st.Site != site || st.N != occ[key] {
			next[g] = len(mine) // off the schedule from here
			continue
		}
		pos[mine[next[g]]] = k
		next[g]++
	}
	return pos
}

// sameRun reports whether control replay c of a schedule ran it as v
// did: to its end, or, v interrupted (its local goroutine took another
// path after the remote part of the anomaly, and the program ran free),
// interrupted at the same step, by the same goroutine, taking the same
// other path (go-quartz's Head, which returns at the emptiness check
// after the test's Clear, where the schedule expects the read below it).
func sameRun(c, v replay.Verdict) bool {
	if c.Explored || c.Unended {
		return false
	}
	if !v.Interrupted {
		return c.Verdict == replay.Reproduced && !c.Interrupted
	}
	return c.Interrupted && c.Step == v.Step && c.Goroutine == v.Goroutine && c.Actual == v.Actual
}

// unheldName names controlled's control replay that runs with
// replay.Options.FreeUnscheduled.
const unheldName = "unheld"

// heldOverTimer reports whether a timer of the program fired (a timer,
// ticker or AfterFunc: replay.Verdict.Fired) while the unit's
// goroutine was held for the other goroutines' steps, both in replay v of
// schedule s, inside the unit (after its first event, by its last), and
// in replay bv of its "before" control b, between the first moved step
// and the unit's first event, more often than v fired there. The
// schedule holds a goroutine at its gate for as long as the steps put
// before its turn take; when those wait on a timer, the virtual clock
// moves past it meanwhile (dynamic/rt/vclock.go), and a program that
// reads the clock on either side of the hold sees its goroutine stalled
// that long. go-quartz's ScheduleJob computed a RunOnce job's fire time
// (trigger.go:65), was held while the execution loop's 700 ms timer fired,
// then pushed the job, which the loop popped far past its due time and
// dropped as misfired (scheduler.go:706): the test's "response is nil".
// The "before" order held it the same way ahead of the unit and failed
// the same way; the "after" order held nothing and passed. A real
// atomicity violation whose remote writes wait on a timer fails in the
// interleaving only: its "before" order, the writes done before the unit
// reads, passes, and this does not apply. Sleeps do not count: a remote
// goroutine that sleeps before its steps (pecanfig1's Second, registry's
// instances started apart) is ordered by the test, and its "before"
// order, failing as the schedule does, is the bug's other order.
func heldOverTimer(s, b *trace.Schedule, v, bv replay.Verdict) bool {
	if s == nil || b == nil || len(s.Anomaly) == 0 || len(b.Anomaly) == 0 {
		return false
	}
	first := s.Anomaly[0]
	if first < 0 || first >= len(s.Steps) {
		return false
	}
	local := s.Steps[first].G
	last := first
	for _, i := range s.Anomaly {
		if i >= 0 && i < len(s.Steps) && s.Steps[i].G == local {
			last = max(last, i)
		}
	}
	if firedIn(v.Fired, first+1, last) == 0 {
		return false
	}
	ins := 0
	for ins < len(s.Steps) && ins < len(b.Steps) && s.Steps[ins] == b.Steps[ins] {
		ins++
	}
	return firedIn(bv.Fired, ins, b.Anomaly[0]) > firedIn(v.Fired, ins, first)
}

// firedIn counts the entries of fired (replay.Verdict.Fired) from lo to
// hi, both included.
func firedIn(fired []int, lo, hi int) int {
	n := 0
	for _, c := range fired {
		if c >= lo && c <= hi {
			n++
		}
	}
	return n
}

// recordedControl is the part of schedule s that keeps the recorded run's
// order: its first prefix steps (the anomaly's Schedule.Prefix: the trace's
// events as recorded, before the generated tail), up to its first anomaly
// event. nil if that is empty.
func recordedControl(s *trace.Schedule, prefix int) *trace.Schedule {
	if s == nil || len(s.Anomaly) == 0 {
		return nil
	}
	n := min(prefix, slices.Min(s.Anomaly), len(s.Steps))
	if n <= 0 {
		return nil
	}
	// (A schedule names at least one anomaly step: its last, which
	// changes nothing either.)
	return &trace.Schedule{Build: s.Build, Pattern: s.Pattern, Steps: slices.Clone(s.Steps[:n]), Anomaly: []int{n - 1}}
}

// recordedFails runs rec, the recorded run's own order (recordedControl),
// for a schedule whose replay v failed its test, with run, and says why
// that failure is not the interleaving's, or "": the recorded order, which
// reorders nothing, fails the test at every place the schedule did, and
// before its last step (replay.Verdict.Scheduled), while it still held
// every goroutine to the recorded order. The replay then cannot run this
// test as it ran when recorded (a hold at a gate that the test's timing
// does not survive, or channel sends paired with the receives in another
// order than they were), and what the test asserts there says nothing of
// any interleaving, whatever values it prints: they follow the holds.
// ratelimit's TestInitial failed its timestamps check
// (ratelimit_test.go:270) in every replay, in its first subtest, which the
// schedules ran as recorded: the trace orders the three results' sends
// otherwise than their timestamps. A schedule's violation in a later
// subtest failed there with other timestamps than its serial orders did,
// and was reported. A panic, a hang, or a failure at a place the recorded
// order passes still stands.
//
// A failure at those places after the recorded order ended, in the free
// run, counts too when that run never interleaved the anomaly's sites
// (interleaved, given its trace, says it did; nil: never asked): the
// test then fails the same way without the interleaving, which the free
// run did not make either. go-co-op/gocron's TestScheduler_Update counts
// a job's runs after its sleeps ("5 is not <= 3" in the schedule): the
// recorded order, then free, failed that count too ("4"), with no
// NextRun read pair split by a setNextRun anywhere in it; what the test
// counts follows the replay's holds on the clock.
func recordedFails(rec *trace.Schedule, v replay.Verdict, interleaved func(path string) bool, run func(name, what string, s *trace.Schedule) (replay.Verdict, bool)) string {
	ps := failPlaces(v.Consequence)
	if rec == nil || v.Panicked || v.Passed || len(ps) == 0 {
		return ""
	}
	cv, ok := run(recordedName, "the recorded run's order up to the unit, nothing reordered", rec)
	if !ok || cv.Verdict != replay.Reproduced || cv.Interrupted || cv.Explored || cv.Panicked || cv.Passed || cv.AsBaseline || cv.Unended {
		return ""
	}
	// Only what failed while the recorded order ran: once it ends, the
	// program runs free, and a free run may fail by the bug itself.
	have, all := failPlaces(cv.Scheduled), failPlaces(cv.Consequence)
	scheduled := true
	for p := range ps {
		scheduled = scheduled && have[p]
		if !all[p] {
			return ""
		}
	}
	if scheduled {
		return "the test fails at the same places while the recorded run's own order is replayed, up to the unit, nothing reordered: the replay does not run this test as it ran, and its failures there say nothing of the interleaving"
	}
	if interleaved == nil || interleaved(cv.Trace) {
		return ""
	}
	return "the test fails at the same places when the recorded run's own order is replayed up to the unit, nothing reordered, and the program then runs free without ever interleaving the anomaly's sites: the failure is not the interleaving's"
}

// uncutCount says why the failure of schedule replay v is not the
// interleaving's, or "", for a test whose recording its event cap ended
// (qGroup.capped) before the test reached its checks: there is then no
// recorded failure (baseline) for controlled's timing-count rule to
// compare with, and the recorded-order control (recordedControl, run by
// recordedFails: ran[recordedName]) stands in for it. That rule's
// condition, with it: both serial orders (ran["before"], ran["after"],
// of cs) fail at exactly the checks where v failed, and so does the
// recorded order, nothing reordered, then run free to the test's end,
// each with values of its own. The same check fails in every run that
// gets to it, with the interleaving or without: what it counts follows
// the timing. ulule/limiter's TestCacheIncrementConcurrent sums the
// increments of the goroutines that start after a 1 s sleep, and fails
// that sum in plain runs under load (goroutines of its first phase still
// incrementing then, or the cleaner deleting a counter an increment
// revived); its recording stopped at a million events, and the schedule
// of a Load/LoadOrStore window between two first-phase goroutines, whose
// counts the test discards, failed the sum with one value, each control
// with another. Needs all three: a recorded order that passes, hangs, is
// killed at the time bound or fails elsewhere, or a serial order that
// does, leaves the failure standing; and a recording that reached the
// checks leaves it to controlled (gauge's serial control holds another
// instance of the bug and fails at the same check, while its recording
// passes).
func uncutCount(cs []*trace.Schedule, v replay.Verdict, ran map[string]replay.Verdict) string {
	p := places(v.Consequence)
	if len(cs) != 2 || p == "" || v.Panicked || v.Passed {
		return ""
	}
	for k, name := range []string{"before", "after"} {
		cv, ok := ran[name]
		if !ok || !sameChecks(cv, cs[k], v) {
			return ""
		}
	}
	rv, ok := ran[recordedName]
	if !ok || rv.Verdict != replay.Reproduced || rv.Interrupted || rv.Explored || rv.Panicked || rv.Passed || rv.AsBaseline || rv.Unended || places(rv.Consequence) != p {
		return ""
	}
	return "the recording stopped at its event cap before the test's checks; the test fails at the same check (" + p + ") in both serial orders and in the recorded run's own order, run free to its end, each with other values: what it counts there follows the timing, not the interleaving"
}

// controlRun gives the options of control replay name of schedule s,
// from the item's (controlOptions).
func controlRun(name string, o replay.Options, s *trace.Schedule) replay.Options {
	switch name {
	case "before", "after", "before" + againSuffix, "after" + againSuffix:
		// A serial order changes what the unit reads, and the path it
		// then takes is the order's doing (ranUnit): it runs free from
		// there, whether or not the schedule's own replay did. Stopped
		// at the divergence, its process ends and shows nothing
		// (lossyconn's after order: the send's heap push compares with
		// the packet the remote steps had not yet taken off).
		o.Explore = true
	case recordedName:
		// WholeRun: recordedFails' interleavingIn looks for the
		// anomaly's sites through all of its free run, which the
		// runtime then records whole.
		o.Explore, o.MarkEnd, o.WholeRun = false, true, true
	case unheldName, unheldName + "-again", unheldName + "-again2":
		// From the anomaly's first step: the prefix runs as the
		// schedule's did, with them held.
		o.FreeFrom = slices.Min(s.Anomaly) + 1
	}
	return o
}

// releaseName names controlled's control replay of releaseOrder.
const releaseName = "after-release"

// recordedName names recordedFails' control replay, which runs with
// replay.Options.MarkEnd.
const recordedName = "recorded"

// failPlaces is the set of places ("x_test.go:12") of a consequence's
// failed assertions; none for a panic or a hang.
func failPlaces(c string) map[string]bool {
	rest, ok := strings.CutPrefix(c, "test fails: ")
	if !ok {
		return nil
	}
	ps := map[string]bool{}
	for _, f := range strings.Split(rest, "; ") {
		if m := failAt.FindStringSubmatch(f); m != nil {
			ps[m[1]] = true
		}
	}
	return ps
}

// failAt is a failed assertion's place, at its start.
var failAt = regexp.MustCompile(`^([\w.-]+\.go:\d+):`)

// controlItems replays the serial controls of the replayed items whose
// findings want one (wantsControl), up to the queue's workers at a time,
// and sets qItem.control for those whose failure controlled (or
// recordedFails) finds not the interleaving's: at most nine control
// replays each (two serial orders, the release order, the schedule again,
// held and up to three times unheld, the recorded order). Then it
// replays once more, one at a time, the schedules of the generated
// drivers' findings that want it (wantsRepeat, of a type meant for
// concurrent use), and sets driverRepeat for those whose repeat passes
// (repeatPasses); last, when the package ran more than one process at a
// time, one at a time too, the schedules of the controlled findings whose
// effect still stands, setting aloneRepeat for those whose repeat passes.
// Called by finish, after wait.
func (q *replayQueue) controlItems(rep *Report) {
	if q.opt.NoControls {
		return
	}
	var todo, repeats []*qItem
	for _, it := range q.items {
		if it.state == pDone && it.inferred == 0 && it.round >= q.handRound {
			switch f := q.findingOf(it); {
			case f.wantsControl():
				todo = append(todo, it)
			case f.wantsRepeat() && (q.unmeant == nil || !q.unmeant(it.g.test)):
				repeats = append(repeats, it)
			}
		}
	}
	if len(todo)+len(repeats) == 0 {
		return
	}
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		sem  = make(chan struct{}, max(1, q.workers))
		runs int
		wall time.Duration
		// active: control processes running; crowded: the package's,
		// at the controls' start, or two controls at once.
		active  int
		crowded = q.isCrowded()
	)
	runner := func(it *qItem) func(name, what string, s *trace.Schedule) (replay.Verdict, bool) {
		return func(name, what string, s *trace.Schedule) (replay.Verdict, bool) {
			if q.ctx.Err() != nil {
				return replay.Verdict{}, false
			}
			q.opt.progress("check: %s %s: replay %d: control %s, %s", q.pkg, it.g.test, it.n(), name, what)
			dir := filepath.Join(it.g.dir, fmt.Sprintf("r%d-control-%s", it.n(), name))
			start := time.Now()
			o := controlRun(name, q.controlOptions(it), s)
			mu.Lock()
			active++
			if active > 1 {
				crowded = true
			}
			mu.Unlock()
			v := runControl(q.ctx, q.b, q.pkg, it.g.test, prediction{a: it.p.a, s: s}, dir, o)
			d := time.Since(start)
			q.opt.progress("check: %s %s: replay %d: control %s: %s at step %d of %d, passed %v, %q, clock fired at steps %v, in %v", q.pkg, it.g.test, it.n(), name, v.Verdict, v.Step, len(s.Steps), v.Passed, v.Consequence, v.Fired, d.Round(time.Millisecond))
			mu.Lock()
			active--
			runs++
			wall += d
			it.controls++ // charged as a replay of its schedule (replayQueue.charges)
			mu.Unlock()
			return v, true
		}
	}
	for _, it := range todo {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			// The verdicts of the controls run, by name, for uncutCount.
			ran := map[string]replay.Verdict{}
			run0 := runner(it)
			run := func(name, what string, s *trace.Schedule) (replay.Verdict, bool) {
				v, ok := run0(name, what, s)
				if ok {
					ran[name] = v
				}
				return v, ok
			}
			p := it.p.a.Pattern
			baseline := it.g.ropt.Baseline
			if it.g.ropt.BaselinePanicked {
				baseline = ""
			}
			gs := map[string]bool{}
			for _, i := range it.s.Anomaly {
				if i >= 0 && i < len(it.s.Steps) {
					gs[it.s.Steps[i].G] = true
				}
			}
			overrun := func(c *trace.Schedule) bool { return overrunsSleep(c, it.g.sleeps, gs) }
			ahead := timerPastSleep(it.s, it.p.a.Schedule, it.v, it.g.sleeps, gs)
			cs := serialControls(it.s, p.T, p.AR)
			it.control = controlled(cs, releaseOrder(it.s, p.T, p.AR, it.tail), ahead, it.s, it.v, baseline, it.p.a.Recheck || it.p.a.Reread, overrun, againIfPassed(it.v, run))
			if it.control == "" {
				interleaved := func(path string) bool { return interleavingIn(path, it.s, p.T, p.SV, p.AR) }
				it.control = recordedFails(recordedControl(it.s, int(it.p.a.Schedule.Prefix)), it.v, interleaved, run)
			}
			if it.control == "" && it.g.capped {
				it.control = uncutCount(cs, it.v, ran)
			}
		}()
	}
	wg.Wait()
	// One at a time, once the package's other replays are done: the
	// outside holder is most likely another of its driver processes on
	// the same fixed address, and two repeats side by side could hold it
	// for each other again.
	for _, it := range repeats {
		v, ok := runner(it)(repeatName, "the same schedule again, the driver's orders and calls in a process of their own", it.s)
		if ok && repeatPasses(v, it.v) {
			it.control = driverRepeat
		}
	}
	if !crowded {
		return
	}
	for _, it := range todo {
		if it.control != "" {
			continue
		}
		if q.recording != nil {
			select {
			case <-q.recording:
			case <-q.ctx.Done():
			}
		}
		v, ok := runner(it)(aloneName, "the same schedule again, alone: no other process of the package running", it.s)
		if ok && repeatPasses(v, it.v) {
			it.control = aloneRepeat
			q.opt.progress("check: %s %s: replay %d: its failure did not come back alone (%q): its effect is withdrawn", q.pkg, it.g.test, it.n(), it.v.Consequence)
		}
	}
	rep.Time.Replay += wall
	rep.Time.Replays += runs
}

// isCrowded reports whether more than one process of the package ran at
// a time so far (replayQueue.crowded).
func (q *replayQueue) isCrowded() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.crowded
}

// controlOptions are the options of item it's control replays: its
// test's, bounded, and exploring if its own replay explored, so that a
// control runs free past a changed read as the schedule did rather than
// stop there.
func (q *replayQueue) controlOptions(it *qItem) replay.Options {
	o := q.bounded(it.g.ropt)
	o.Explore = it.v.Explored
	return o
}

// releaseOrder is the after order that runs the remote steps right after
// the unit instead of leaving them to run free past the schedule's end:
// the steps of s, without the remote goroutines' steps from the unit's
// first event on (their leading region markers stay, as in
// serialControls' after order), then the local goroutine's recorded steps
// after the unit (tail, unitTail) up to its release of every lock it
// holds at the unit's last event, then the remote steps, in s's order,
// then what s has after the unit. The local goroutine then waits at its
// gate until the schedule ends, as it does in s.
//
// serialControls' after order cannot wait for the unit's locks (the
// schedule would hold the unit with its locks while the remote steps
// wait on them), so the remote steps run only when every goroutine runs
// free, racing what the local goroutine does next: sturdyc's test counts
// the cache twice in one check (the condition, then the message), and the
// refresh's deletes, free, came after both ("got 5") where the schedule
// had them between ("got 3"). Here they come between the unit and the
// rest as in s, and a failure with the schedule's very message is one a
// serial order gives. Nil when s has no remote step inside the unit, or
// the tail does not release the unit's locks.
func releaseOrder(s *trace.Schedule, T, AR []int, tail []trace.Step) *trace.Schedule {
	isLocal, first, last, ok := unitSpan(s, T, AR)
	if !ok {
		return nil
	}
	if first < 0 || last >= len(s.Steps) {
		return nil
	}
	local := s.Steps[first].G
	remote := map[string]bool{}
	for k, i := range s.Anomaly {
		if isLocal(k) || i <= first || i >= last {
			continue
		}
		if g := s.Steps[i].G; g != local {
			remote[g] = true
		} else {
			return nil // another unit of the same goroutine (serialControls)
		}
	}
	if len(remote) == 0 {
		return nil
	}
	// The local goroutine's locks held at the unit's last event, and its
	// occurrence counts so far (its steps in s are a prefix of its own).
	held := map[string]int{}
	occ := map[stepKey]int{}
	for _, st := range s.Steps[:last+1] {
		if st.G != local {
			continue
		}
		occ[stepKey{op: st.Op, site: st.Site}] = max(occ[stepKey{op: st.Op, site: st.Site}], st.N)
		switch st.Op {
		case trace.Lock, trace.RLock:
			held[st.Obj]++
		case trace.Unlock, trace.RUnlock:
			if held[st.Obj] > 0 {
				held[st.Obj]--
			}
		}
	}
	open := 0
	for _, n := range held {
		open += n
	}
	var rest []trace.Step
	for _, st := range tail {
		if open == 0 {
			break
		}
		if st.G != local {
			return nil
		}
		k := stepKey{op: st.Op, site: st.Site}
		occ[k]++
		st.N = occ[k]
		rest = append(rest, st)
		if (st.Op == trace.Unlock || st.Op == trace.RUnlock) && held[st.Obj] > 0 {
			held[st.Obj]--
			open--
		}
	}
	if open > 0 {
		return nil
	}
	c := &trace.Schedule{Build: s.Build, Pattern: s.Pattern}
	at := map[int]int{}
	var moved []int
	acted := map[string]bool{}
	for i, st := range s.Steps[:last+1] {
		if i >= first && remote[st.G] {
			if acted[st.G] || !marker(st.Op) {
				acted[st.G] = true
				moved = append(moved, i)
				continue
			}
		}
		at[i] = len(c.Steps)
		c.Steps = append(c.Steps, st)
	}
	c.Steps = append(c.Steps, rest...)
	for _, i := range moved {
		c.Steps = append(c.Steps, s.Steps[i])
	}
	c.Steps = append(c.Steps, s.Steps[last+1:]...)
	for k, i := range s.Anomaly {
		if j, ok := at[i]; ok && isLocal(k) {
			c.Anomaly = append(c.Anomaly, j)
		}
	}
	c.Changed = anomalyReads(c)
	return c
}

// unitCall is the name of the innermost call (region) of the local
// goroutine that is open at every local event of s's anomaly (isLocal
// says which pattern events are the local unit's), the same activation
// throughout; "" when none is.
func unitCall(s *trace.Schedule, isLocal func(k int) bool) string {
	first, last := -1, -1
	for k, i := range s.Anomaly {
		if isLocal(k) {
			if first < 0 || i < first {
				first = i
			}
			last = max(last, i)
		}
	}
	if first < 0 || last >= len(s.Steps) {
		return ""
	}
	g := s.Steps[first].G
	var stack []int // open regions' steps
	lowest := -1    // the fewest regions open between first and last
	for i := 0; i <= last; i++ {
		st := s.Steps[i]
		if st.G != g {
			continue
		}
		switch st.Op {
		case trace.RegionBegin:
			stack = append(stack, i)
		case trace.RegionEnd:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
		if i == first {
			lowest = len(stack)
		} else if i > first && len(stack) < lowest {
			lowest = len(stack)
		}
	}
	if lowest <= 0 || lowest > len(stack) {
		return ""
	}
	return s.Steps[stack[lowest-1]].Obj
}

// maxInstanceWork bounds interleavingIn's search; past it, an instance
// is assumed found.
const maxInstanceWork = 1 << 20

// interleavingIn reports whether the replay trace at path shows the
// anomaly of schedule s (threads T, variables SV, units AR) anywhere, at
// its sites: events in the pattern's order, each with the operation and
// site of the pattern's event in s, by one goroutine exactly where the
// pattern's threads are one, on one object wherever the pattern's
// variable is one (objects are named per run, so they are compared
// within the trace), and the local unit's events inside one activation
// of the innermost call that holds them all in s (unitCall; any, when
// none does). An answer of false says the run never interleaved those
// sites so. True when unsure: the trace cannot be read or was cut short
// (truncated), or the search passes its bound.
func interleavingIn(path string, s *trace.Schedule, T, SV, AR []int) bool {
	if path == "" || s == nil || len(s.Anomaly) == 0 || len(s.Anomaly) != len(T) || len(T) != len(SV) || len(T) != len(AR) {
		return true
	}
	tr, err := trace.ReadFile(path, trace.ReadOptions{Lenient: true})
	if err != nil || tr.Truncated != "" {
		return true // a run cut short may have interleaved them after its cut
	}
	n := len(T)
	type want struct {
		op   trace.Op
		site string
	}
	ws := make([]want, n)
	for k, i := range s.Anomaly {
		if i < 0 || i >= len(s.Steps) {
			return true
		}
		ws[k] = want{s.Steps[i].Op, s.Steps[i].Site}
	}
	isLocal := func(k int) bool { return T[k] == T[0] && AR[k] == AR[0] }
	call := unitCall(s, isLocal)
	// act: each event's innermost open activation of call in its
	// goroutine (-1: none), when call is known.
	var act []int
	if call != "" {
		act = make([]int, len(tr.Events))
		open := map[int32][]int{}
		for e, ev := range tr.Events {
			st := open[ev.G]
			switch {
			case ev.Op == trace.RegionBegin && tr.ObjName(ev) == call:
				st = append(st, e)
			case ev.Op == trace.RegionEnd && tr.ObjName(ev) == call && len(st) > 0:
				st = st[:len(st)-1]
			}
			open[ev.G] = st
			act[e] = -1
			if len(st) > 0 {
				act[e] = st[len(st)-1]
			}
		}
	}
	// The candidates of each pattern event, in trace order.
	cands := make([][]int, n)
	for e, ev := range tr.Events {
		site := tr.Site(ev)
		for k, w := range ws {
			if ev.Op == w.op && site == w.site {
				cands[k] = append(cands[k], e)
			}
		}
	}
	g := make([]int32, n)
	obj := make([]string, n)
	unit := -1 // the local unit's activation, once its first event matched
	work := 0
	var match func(k, after int) bool
	match = func(k, after int) bool {
		if k == n {
			return true
		}
		from, _ := slices.BinarySearch(cands[k], after+1)
		for _, e := range cands[k][from:] {
			if work++; work > maxInstanceWork {
				return true
			}
			ev := tr.Events[e]
			o := eventObj(tr, ev)
			ok := true
			for j := 0; j < k && ok; j++ {
				ok = (T[j] == T[k]) == (g[j] == ev.G) && (SV[j] != SV[k] || obj[j] == o)
			}
			if !ok {
				continue
			}
			if act != nil && isLocal(k) && (act[e] < 0 || k > 0 && act[e] != unit) {
				continue
			}
			g[k], obj[k] = ev.G, o
			if k == 0 && act != nil {
				unit = act[e]
			}
			if match(k+1, e) {
				return true
			}
		}
		return false
	}
	return match(0, -1)
}
