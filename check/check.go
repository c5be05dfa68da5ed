// Package check runs pecanvet's pipeline on packages, stage by stage, and
// keeps only the anomalies a replay reproduced.
//
// Run loads the packages (static/load), generates test drivers for their
// static candidates (static/driver), instruments them
// (dynamic/instrument), builds their test binaries (dynamic/testbin),
// records each test (dynamic/record), predicts the anomalies another
// schedule would show (predict, predict/filter) and replays each
// prediction's schedule (replay, replay/racerun). It is what `pecanvet
// check` prints and what the vet tool confirms its candidates with. Every
// step is bounded: per-test recording and replay timeouts, a maximum
// number of replays per test and a work budget per package, each
// reported when hit.
package check

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/instrument"
	"github.com/pecanvet/pecanvet/dynamic/record"
	"github.com/pecanvet/pecanvet/dynamic/testbin"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/internal/note"
	"github.com/pecanvet/pecanvet/internal/tmpdir"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
	"github.com/pecanvet/pecanvet/static/driver"
	"github.com/pecanvet/pecanvet/static/load"
)

// Options bound a check.
type Options struct {
	Dir        string
	Patterns   []string // package patterns
	Run        string   // test regexp
	Anomalies  []*pattern.Pattern
	Timeout    time.Duration // recording, per test; default 2m
	Replay     replay.Options
	MaxReplays int // per test; default 100
	// Budget bounds a package's dynamic work, in work units: what that
	// long took on an idle machine (work.go), whatever time it takes
	// here; default 5m. A wall-clock safety net cuts at netOf(Budget).
	Budget     time.Duration
	BuildFlags []string
	Progress   io.Writer // progress lines, if not nil
	KeepTraces string    // if set, keep the recorded traces here
	Drivers    bool      // generate test drivers (static/driver) for the candidates no test reaches, and for packages without tests
	// DriversDir, if set, receives the generated driver files (with
	// Drivers), one per package, under the package's directory relative
	// to Dir: for people to read and keep. The check itself uses them
	// from its overlay only.
	DriversDir string
	// Perturb is how many more runs of a test to record, under perturbed
	// schedules (seeds 1..Perturb), when its first run leaves nothing
	// reproduced: see perturbed. Default 1; negative: none.
	Perturb int
	// Alone records every test in a process of its own, rather than a
	// package's test functions in one process (recordAhead).
	Alone bool
	// NoFilters turns off the filters between prediction and replay
	// (predict/filter): every prediction is replayed, in search order.
	// For measuring what they save, and for tests.
	NoFilters bool
	// RankReadsFrom replays each site combination's instances with the
	// fewest broken reads first (predict/filter.Broken, AVFilter's
	// criterion). Off by default: on the corpus it cost replays and lost
	// a finding under -maxreplays; the search's own order does better.
	RankReadsFrom bool
	// NoControls turns off the control replays of effect-only violations
	// (control.go), which tell a failure of the schedule's delays from
	// one of its interleaving (issue 26). For measuring what they change.
	NoControls bool
	// Short runs the tests with -test.short, as go test -short: for
	// suites whose long tests skip themselves under testing.Short().
	Short bool
}

// Finding is one prediction and what replay made of it.
type Finding struct {
	Package, Test string
	Anomaly       predict.Anomaly
	Schedule      *trace.Schedule
	Verdict       replay.Verdict
	Goroutines    []string // of the anomaly's events, in pattern order
	Objects       []string
	// Driver is set when a generated driver (static/driver) found it:
	// the methods it called concurrently ("Withdraw and Withdraw").
	Driver string
	// DriverType is the type whose methods the driver called, and
	// DriverMeant why that type is meant for concurrent use ("it holds a
	// sync.Mutex"), or "" when nothing says so (driver.Driver.Meant).
	DriverType, DriverMeant string
	// Inferred: not replayed (or not counted as a replay), because an
	// earlier replay of the same trace failed within the steps its
	// schedule begins with; Verdict is that replay's, and its message
	// says which ("same prefix as replay N, which failed at step k").
	Inferred bool
	// Dependence says how the interleaving changes a value the unit goes
	// on to use (static/depend), for a reproduced atomicity or atomic-set
	// violation whose replay showed no effect; empty when it changes none.
	Dependence string
	// Control is set when a serial control of an effect-only violation
	// failed the same way (see control.go): the failure is the schedule's
	// holding goroutines, not the interleaving's, so Effect is false.
	Control string
	// Lead is set when the finding stands for the same bug as another
	// one, reported in its place: the site of that one's first event.
	// See group.
	Lead string
	// Grouped is, for a lead, how many findings name it as their Lead:
	// the other interleavings of its bug, shown with -v.
	Grouped    int
	dependPair [2]string
	pred       string // predID of its prediction (filters.count)
	unordered  bool   // prediction.unordered
}

// ObjectNames returns the objects of the anomaly's events without their
// "#k" instance suffixes, each once.
func (f *Finding) ObjectNames() []string {
	var out []string
	seen := map[string]bool{}
	for _, o := range f.Objects {
		if k := strings.LastIndexByte(o, '#'); k > 0 {
			o = o[:k]
		}
		if !seen[o] {
			seen[o] = true
			out = append(out, o)
		}
	}
	return out
}

// Reproduced reports whether the finding was proved. A lock-order
// inversion is proved only by the deadlock its replay ends in
// (replay.Verdict.Deadlocked): a replay that took another path and then
// failed shows no deadlock. A goroutine leak is proved only by the
// stranded goroutine its replay's test returns with
// (replay.Verdict.Leaked). An order violation is proved only by a panic
// its replay raised in the package's own code (PackagePanic).
func (f *Finding) Reproduced() bool {
	if f.Verdict.Verdict != replay.Reproduced {
		return false
	}
	p := f.Anomaly.Pattern
	return p == nil || (!p.Lock || len(f.Verdict.Deadlocked) >= 2) && (!p.Leak || len(f.Verdict.Leaked) > 0) && (!p.Cond || len(f.Verdict.Deadlocked) > 0) && (!p.Relock || len(f.Verdict.Deadlocked) > 0) &&
		(!p.Order || f.PackagePanic())
}

// PackagePanic reports whether the replay panicked, unlike the recorded
// run, in code outside the package's tests (replay.Verdict.PanicAt: not a
// _test.go file), outside a synctest bubble. That is an order
// violation's only proof: its schedule runs two critical sections in the
// other serial order, in which a test that kept them apart by a sleep
// may fail its assertions, or hang, without a bug (a withdrawal swapped
// before its deposit); a nil dereference or a second close in the
// package's code is a bug in any order.
//
// Only a runtime panic counts: a nil dereference, an index out of range, a
// close or a send on a closed channel, a WaitGroup's negative counter. A
// panic the package raises itself ("pool stopped") is its contract for a
// call in the wrong order, which the swap may simply have made.
func (f *Finding) PackagePanic() bool {
	v := f.Verdict
	if !v.Panicked || v.AsBaseline || v.Bubble || v.PanicAt == "" || !runtimePanic(v.Consequence) {
		return false
	}
	file := v.PanicAt
	if k := strings.LastIndexByte(file, ':'); k > 0 {
		file = file[:k]
	}
	return !strings.HasSuffix(file, "_test.go")
}

// WithoutEffect reports whether the finding was reproduced but is no
// bug to report. A data race always is one, except in a generated driver
// (Driver), whose concurrent calls are pecanvet's guess, not the
// package's usage: there it is one only when the driven type is meant
// for concurrent use (DriverMeant), and either its replay shows an
// effect or one of its accesses holds a lock or is atomic (lockedAccess:
// the lock or the atomic says the variable is shared, and the other
// access forgot it). Two
// unlocked accesses without an effect may be the work of a method meant
// for one caller at a time (a Publish called once), even in a type that
// holds a mutex for its other methods. Another finding of a driver
// counts only when its replay shows an effect (an outcome no sequential
// order gives: the driver's test fails, or panics), and only on a type
// meant for concurrent use, as a race. An atomicity or
// atomic-set violation counts when its replay shows an effect (Effect) or
// when the interleaving changes a value the unit goes on to use
// (Dependence); one across a re-check under a lock (Anomaly.Recheck) only
// with an effect, since the re-read decides; and one of an acting pattern
// (av/RRW, another goroutine's check inside the unit's check-then-act)
// only with an effect: the remote check's value always decides a write
// somewhere, and only the outcome shows that acting on it twice is wrong.
func (f *Finding) WithoutEffect() bool {
	if !f.Reproduced() {
		return false
	}
	if f.Driver != "" && f.DriverMeant == "" {
		// Of a type that shows no sign of concurrent use, calls made
		// together are outside its contract, whatever they do (go-memdb's
		// Txn, one goroutine's by its doc: Abort and Snapshot together
		// panic).
		return true
	}
	if f.closeClose() {
		return !f.Effect()
	}
	if f.Driver != "" && f.Anomaly.Pattern.Adjacent {
		return !(f.Effect() || f.lockedAccess())
	}
	if f.Effect() {
		return false
	}
	if f.Driver != "" {
		return true
	}
	p := f.Anomaly.Pattern
	return !p.Adjacent && (f.Anomaly.Recheck || p.Acting || f.Dependence == "")
}

// closeClose reports whether the finding pairs two closes of one channel
// (race/close-close). That is no data race: a close synchronizes, and the
// race detector reports none (runtime.closechan panics on the second close
// before its race write). The pair's only harm is the second close's
// panic, which comes in every order, serial ones included, so it counts
// only with an effect: the panic escaping in the replay, or what the
// goroutine that recovered does differently failing the test. go-sse's
// Joe.Shutdown, called twice at once, recovers the panic into
// ErrProviderClosed whichever call closes first.
func (f *Finding) closeClose() bool {
	p := f.Anomaly.Pattern
	if p == nil || !p.Chan || p.Len() == 0 {
		return false
	}
	for _, a := range p.AT {
		if a != pattern.W {
			return false
		}
	}
	return true
}

// runtimePanic reports whether consequence (replay.Verdict.Consequence
// of a panic, "panic: MESSAGE at FILE:LINE") is a panic of the runtime
// or the sync package, not one the program raised itself.
func runtimePanic(consequence string) bool {
	msg, ok := strings.CutPrefix(consequence, "panic: ")
	if !ok {
		return false
	}
	for _, p := range []string{"runtime error: ", "close of closed channel", "send on closed channel", "close of nil channel", "sync: negative WaitGroup counter", "sync: WaitGroup is reused"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// lockedAccess reports whether one of the anomaly's events ran while its
// goroutine held a lock (a Lock or RLock of the schedule not yet
// undone), or is itself atomic: an atomic access says the word is shared
// as a lock does, and a plain access beside it forgot that (simonfxr/
// pubsub's Subscription.flags, stored by atomic.StoreUintptr at
// core.go:202 and read plainly by fl() at core.go:198; Go's race
// detector reports such a pair as a race).
func (f *Finding) lockedAccess() bool {
	if f.Schedule == nil {
		return false
	}
	held := map[string]int{} // goroutine + lock → times held
	at := map[int]bool{}
	for _, i := range f.Schedule.Anomaly {
		at[i] = true
	}
	for i, st := range f.Schedule.Steps {
		if at[i] && st.Op.IsAtomic() {
			return true
		}
		if at[i] {
			for k, n := range held {
				if n > 0 && strings.HasPrefix(k, st.G+" ") {
					return true
				}
			}
		}
		switch st.Op {
		case trace.Lock, trace.RLock:
			held[st.G+" "+st.Obj]++
		case trace.Unlock, trace.RUnlock:
			held[st.G+" "+st.Obj]--
		}
	}
	return false
}

// Note is a note of a check: work skipped or cut short, a bound hit, a
// test that failed while recorded.
type Note = note.Note

// Report is the outcome of a check.
type Report struct {
	Findings []Finding // reproduced and pruned, in order
	Notes    []Note    // skipped work, bounds hit, build notes
	Tests    int
	Events   int
	Listed   int // tests found in the packages; Listed-Tests were left unchecked
	// Checked names the tests checked ("pkg Test"), in order.
	Checked []string
	// Work is the work charged to the packages' budgets, in work units
	// (work.go).
	Work int64
	Time Timing
	// Filtered says, per filter (FilterLocks, FilterReadsFrom), what the
	// filters between prediction and replay saved; nil with NoFilters.
	Filtered map[string]*FilterCount
	// Doomed counts the predictions not replayed because an earlier replay
	// of their trace deadlocked where they would (see doom).
	Doomed int
	// Alike counts the predictions not replayed because earlier instances
	// of their site combination in their trace deadlocked alike, or
	// touched other objects than predicted alike (see alikeRuns).
	Alike int
	// Reordered counts the inferred findings (Inferred) whose failure
	// was shared through an equivalent prefix: the same steps, the
	// independent ones in another order (equiv.go).
	Reordered int
	// Folded counts the goroutine assignments the searches folded onto one
	// representative per combination of sites and start sites
	// (search.Stats.Folded).
	Folded int
	// Candidates are the static candidates of the checked packages with
	// what the dynamic loop made of each (candidateStatuses); only with
	// Options.Drivers, which computes them.
	Candidates []CandidateStatus
	// Drivers are the generated drivers recorded, each with why it
	// skipped itself, if it did.
	Drivers []DriverRun
	// DriversGenerated counts the drivers generated for the checked
	// packages: those recorded (Drivers) and those not run because the
	// tests held their candidates in two goroutines.
	DriversGenerated int
}

// DriverRun is a generated driver's recorded run.
type DriverRun struct {
	Package, Test string
	Calls         string // "Withdraw and Withdraw of Ledger"
	// Skipped says in one line why the driver skipped (it could not build
	// a usable receiver, its calls did not return), or is "" if it ran.
	Skipped string
}

// SkippedDriver returns why the driver test of pkg skipped, or "".
func (r *Report) SkippedDriver(pkg, test string) string {
	for _, d := range r.Drivers {
		if d.Package == pkg && d.Test == test {
			return d.Skipped
		}
	}
	return ""
}

// Timing says where a check's time went. Durations are summed over the
// processes and goroutines that did the work, so with work in parallel
// their sum exceeds the wall time; Wall is the wall time of the whole.
type Timing struct {
	Wall, Build, Record, Predict, Replay time.Duration
	// Build's parts: loading the packages (go list -export -deps -test
	// and type-checking them from source), generating the drivers,
	// instrumenting (with the module's packages they import: more go
	// lists) and building the test binaries (go test -c). The load and
	// go test -c are fixed costs of every package checked (issue 30).
	Load, Drivers, Instrument, Compile time.Duration
	Records, Replays                   int // processes run for each
}

func (t Timing) String() string {
	r := func(d time.Duration) string { return d.Round(time.Millisecond).String() }
	return fmt.Sprintf("wall %s: build %s, record %s (%d runs), predict %s, replay %s (%d runs)",
		r(t.Wall), r(t.Build), r(t.Record), t.Records, r(t.Predict), r(t.Replay), t.Replays)
}

// addNote adds a note on package pkg, and test if not "".
func (r *Report) addNote(kind note.Kind, pkg, test, format string, args ...any) {
	r.Notes = append(r.Notes, note.New(kind, pkg, test, format, args...))
}

// Inferred counts the findings pruned without a replay of their own
// (Finding.Inferred).
func (r *Report) Inferred() int {
	n := 0
	for _, f := range r.Findings {
		if f.Inferred {
			n++
		}
	}
	return n
}

// Reproduced returns the proved findings.
func (r *Report) Reproduced() []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Reproduced() {
			out = append(out, f)
		}
	}
	return out
}

// Reported returns the findings to report by default: reproduced, with an
// effect or a dependence (not WithoutEffect), one per bug (no Lead).
func (r *Report) Reported() []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Reproduced() && !f.WithoutEffect() && f.Lead == "" {
			out = append(out, f)
		}
	}
	return out
}

// Run checks the packages.
func Run(ctx context.Context, opt Options) (*Report, error) {
	if opt.Timeout <= 0 {
		opt.Timeout = 2 * time.Minute
	}
	if opt.MaxReplays <= 0 {
		opt.MaxReplays = 100
	}
	if opt.Budget <= 0 {
		opt.Budget = 5 * time.Minute
	}
	if opt.Perturb == 0 {
		opt.Perturb = 1
	}
	if opt.Anomalies == nil {
		opt.Anomalies, _ = pattern.Builtin("all")
	}
	start := time.Now()
	// The instrumenter's dependencies' imports are read with the load's
	// own go list (instrument.SourceDeps): a go list less per check.
	loaded, err := load.LoadFor(ctx, opt.Dir, opt.Patterns, opt.BuildFlags, instrument.SourceDeps(opt.BuildFlags))
	if err != nil {
		return nil, err
	}
	var tm Timing
	tm.Load = time.Since(start)
	drivers := &driver.Result{}
	if opt.Drivers {
		dstart := time.Now()
		if drivers, err = driver.Generate(ctx, loaded); err != nil {
			return nil, err
		}
		tm.Drivers = time.Since(dstart)
		opt.progress("driver: generated %d driver files in %v", len(drivers.Files), tm.Drivers.Round(time.Millisecond))
		if opt.DriversDir != "" {
			if err := writeDrivers(opt.DriversDir, opt.Dir, drivers.Files); err != nil {
				return nil, err
			}
		}
	}
	istart := time.Now()
	inst, err := instrument.Instrument(ctx, instrument.Options{Packages: loaded, Extra: drivers.Files})
	if err != nil {
		return nil, err
	}
	tm.Instrument = time.Since(istart)
	opt.progress("instrument: instrumented %d packages (and %d packages they import) in %v", len(inst.Packages), len(inst.Deps), tm.Instrument.Round(time.Millisecond))
	cstart := time.Now()
	b, err := testbin.New(ctx, inst, testbin.Options{Dir: opt.Dir, BuildFlags: opt.BuildFlags, Progress: opt.Progress, Extra: drivers.Files, Short: opt.Short})
	if err != nil {
		return nil, err
	}
	defer b.Close()
	rec := &record.Recorder{Build: b, MaxEvents: recordCap, MaxGoroutines: predict.MaxGoroutines}
	tm.Compile = time.Since(cstart)
	rep := &Report{Notes: slices.Concat(inst.Notes, drivers.Notes, b.Notes), Time: tm}
	rep.Time.Build = time.Since(start)
	defer func() { rep.Time.Wall = time.Since(start) }()
	scratch, err := tmpdir.Make("pecanvet-check-")
	if err != nil {
		return nil, err
	}
	defer tmpdir.Remove(scratch)
	pkgs := make([]string, 0, len(b.Binaries))
	for p := range b.Binaries {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, pkg := range pkgs {
		st := statics{drivers: map[string]driver.Driver{}, cands: drivers.Candidates[pkg], reach: drivers.Reach[pkg], loaded: loaded}
		st.candIdx = newCandIndex(st.cands)
		for _, d := range drivers.Drivers[pkg] {
			st.drivers[d.Test] = d
		}
		if err := checkPackage(ctx, rec, st, pkg, scratch, opt, rep); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// statics is what the static stages made of one package: its generated
// drivers (static/driver), by test name; its static candidates; for each
// of its tests, the candidates its call graph reaches (empty without
// Options.Drivers); and the load they were made from, which the
// dependence criterion (static/depend) reads too.
type statics struct {
	drivers map[string]driver.Driver
	cands   []driver.Candidate
	candIdx *candIndex // cands by line (onCandidate)
	reach   map[string][]int
	loaded  *load.Packages
}

func (o *Options) progress(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, format+"\n", args...)
	}
}

// failNote says why a test failed while it was recorded: in a normal run
// too (the user's test fails without pecanvet's help), or only
// instrumented (a timing assertion, say). Either way its trace is used.
// plain reports whether it failed in the normal run.
func failNote(p *plainRuns, test string, others []string) (why string, plain bool) {
	passed, err := p.passed(test, others)
	if err != nil {
		return fmt.Sprintf("fails instrumented (the uninstrumented build failed: %v); predicting from its trace anyway", err), false
	}
	if passed {
		return "fails only under instrumentation (it passes in a normal run); predicting from its trace anyway", false
	}
	return "fails in a normal run too, without pecanvet; predicting from its trace anyway", true
}

// recordCap is the recordings' event cap: what a prediction reads
// (predict.MaxEvents); tests lower it.
var recordCap = predict.MaxEvents

// waitsPlain reports whether the check of a test recorded as rt waits,
// before its prediction, for a normal run and its uninstrumented build: a
// failed test (wantsPlain) that is not a generated driver, recorded in a
// batch (per > 1). Its batch's first failure started that build
// (recordAhead.whenFailed) before the result was handed over, so the
// check does not record it again first (checkTests: that is for a
// package's first failure when no build was started, which a test
// recorded alone can be), and the answer waits for the build. Either way
// the choice reads only the recording, never the clock.
func waitsPlain(rt record.Test, driver bool, per int) bool {
	return wantsPlain(rt) && !driver && rt.Batched && per > 1
}

// wantsPlain reports whether failNote will ask how a recorded test does
// in a normal run: it failed, not at a bound or a hang of the recording
// (checkTests' order of cases).
func wantsPlain(rt record.Test) bool {
	return !rt.Passed && !rt.Skipped && !rt.TimedOut && !strings.HasPrefix(rt.Truncated, "stalled: ") && !strings.HasPrefix(rt.Truncated, "hung: ") && !record.EndedAtCap(rt)
}

// plainRuns runs a package's tests uninstrumented (failNote), and keeps
// each one's outcome. A test that failed while recorded in a process of
// many runs with the others so recorded that failed after it, in one
// process, as go test runs them: on redigo, whose tests need a Redis
// server, 46 of them each started a process of its own, one after the
// other, in the package's loop.
type plainRuns struct {
	ctx     context.Context
	b       *testbin.Build
	pkg     string
	timeout time.Duration
	passes  map[string]bool // test → passed in a normal run
}

// passed reports whether test passes in a normal run, running it with
// others (tests of the package, recorded in one process) if it was not
// run yet.
func (p *plainRuns) passed(test string, others []string) (bool, error) {
	if v, ok := p.passes[test]; ok {
		return v, nil
	}
	bin, err := p.b.PlainBinary(p.ctx, p.pkg)
	if err != nil {
		return false, err
	}
	if p.passes == nil {
		p.passes = map[string]bool{}
	}
	run := []string{test}
	for _, t := range others {
		if _, ok := p.passes[t]; !ok && t != test {
			run = append(run, t)
		}
	}
	if len(run) > 1 {
		vs, clean := testbin.RunTests(p.ctx, bin, p.b.Dirs[p.pkg], run, nil, p.timeout)
		for t, v := range vs {
			// A pass counts only when the process ended well: a
			// TestMain's check after the tests fails a test run alone.
			if !v || clean {
				p.passes[t] = v
			}
		}
	}
	if _, ok := p.passes[test]; !ok {
		p.passes[test] = testbin.RunTest(p.ctx, bin, p.b.Dirs[p.pkg], test, nil, p.timeout).Passed
	}
	// Run beside the package's other processes (recordings, replays), a
	// test keeping a fixed path or port collided with them: the
	// failures run again, in one process alone among the package's
	// (testbin.SetAlone), before they count as the test's own
	// (TestFixedPathOutsideRunsAlone: all eight "failed in a normal run
	// too" on a two-core machine).
	dir := p.b.Dirs[p.pkg]
	var failed []string
	for _, t := range run {
		if v, ok := p.passes[t]; ok && !v && !testbin.Alone(dir, t) {
			failed = append(failed, t)
		}
	}
	if len(failed) > 0 {
		for _, t := range failed {
			testbin.SetAlone(dir, t, true)
		}
		if len(failed) == 1 {
			p.passes[failed[0]] = testbin.RunTest(p.ctx, bin, dir, failed[0], nil, p.timeout).Passed
		} else {
			vs, clean := testbin.RunTests(p.ctx, bin, dir, failed, nil, p.timeout)
			for t, v := range vs {
				if v && clean {
					p.passes[t] = true
				}
			}
		}
		for _, t := range failed {
			testbin.SetAlone(dir, t, false)
		}
	}
	return p.passes[test], nil
}

func checkPackage(ctx context.Context, b *record.Recorder, st statics, pkg, scratch string, opt Options, rep *Report) error {
	acct := newAccount(opt.Budget)
	dix := newDependIndex(st.loaded, pkg)
	acct.keys = newKeyVerdicts(packageSettles(st, dix))
	tests, err := b.Tests(ctx, pkg, opt.Run)
	if err != nil {
		return err
	}
	if len(tests) == 0 {
		rep.addNote(note.NoTests, pkg, "", "no tests to run")
		return nil
	}
	// The package's own tests first; then the generated drivers whose
	// candidates those tests did not reach (see driversToRun).
	var own, generated []string
	for _, t := range tests {
		if _, ok := st.drivers[t]; ok {
			generated = append(generated, t)
		} else {
			own = append(own, t)
		}
	}
	rep.Listed += len(own)
	own = reachingFirst(pkg, own, st.reach, rep)
	seen := map[string]bool{} // one finding per site combination per package
	cov, covDrivers := newCoverage(), newCoverage()
	first := len(rep.Findings)
	// The drivers that the own tests' first runs leave needed are
	// recorded while those tests' replays and perturbed recordings run
	// (pond: 1.1 s of drivers after 1.2 s of a replay waiting out a
	// deadline). Which of them are checked is still decided by every run
	// of the tests (driversToRun): coverage only grows, so those are
	// among the ones recorded ahead; the rest are dropped unused.
	var ahead *recordAhead
	defer func() {
		if ahead != nil {
			ahead.stop()
		}
	}()
	startDrivers := func() {
		need := driversNeeded(generated, st.drivers, cov)
		if len(need) == 0 || ctx.Err() != nil {
			return
		}
		opt.progress("check: %s: recording %d generated %s ahead, while the tests' replays run", pkg, len(need), plural("driver", len(need)))
		ra, err := newRecordAhead(ctx, b, pkg, need, filepath.Join(scratch, "drivers-ahead"), opt, 1)
		if err != nil {
			return // recorded when checked, as without ahead
		}
		ra.startUpTo(ra.ahead - 1)
		ahead = ra
	}
	var ho *handOver
	if len(own) > 0 {
		ownLimit := acct.units
		if len(generated) > 0 {
			// The drivers drive what no test reached: the tests must not
			// take all of the budget (on ants they did, and 11 drivers
			// never ran). What the drivers leave of it goes to the
			// predictions the tests' limit cut, after them (handOver).
			ownLimit -= acct.units / driverShare
			ho = &handOver{}
		}
		if err := checkTests(ctx, b, st, pkg, own, filepath.Join(scratch, "own"), opt, rep, seen, acct, ownLimit, cov, nil, startDrivers, ho); err != nil {
			return err
		}
	}
	if run := driversToRun(pkg, generated, st.drivers, cov, rep); len(run) > 0 {
		if ahead != nil && len(run) < len(ahead.tests) {
			opt.progress("check: %s: %d of the %d drivers recorded ahead not checked: later runs of the tests held their candidates", pkg, len(ahead.tests)-len(run), len(ahead.tests))
		}
		rep.Listed += len(run)
		if acct.spent >= acct.units || acct.netPast() {
			rep.addNote(note.Budget, pkg, "", "%s; %d generated drivers not run", acct.spentWhy(acct.units), len(run))
		} else if err := checkTests(ctx, b, st, pkg, run, filepath.Join(scratch, "drivers"), opt, rep, seen, acct, acct.units, covDrivers, ahead, nil, nil); err != nil {
			return err
		}
	}
	if ahead != nil {
		ahead.stop() // the drivers not checked, still recording
		ahead = nil
	}
	ho.run(acct, opt, seen, rep)
	for i := first; i < len(rep.Findings); i++ {
		if d, ok := st.drivers[rep.Findings[i].Test]; ok && rep.Findings[i].Package == pkg {
			rep.Findings[i].Driver, rep.Findings[i].DriverType, rep.Findings[i].DriverMeant = d.Calls, d.Type, d.Meant
		}
	}
	dix.judgeFindings(rep.Findings[first:], rep)
	dups := pickInstances(rep.Findings[first:])
	group(rep.Findings[first:])
	leadAfterGroup(rep.Findings[first:], dups)
	leadObserved(rep.Findings[first:])
	cands := candidateStatuses(pkg, st.cands, rep.Findings[first:], cov, covDrivers, st.reach)
	for i := range cands {
		// A candidate its driver could not drive says why.
		if c := &cands[i]; c.Status == "not reached" && c.Driver != "" {
			if why := rep.SkippedDriver(pkg, c.Driver); why != "" {
				c.Status, c.Why = "not driven", "its driver "+c.Driver+" skipped: "+why+reachedBy(c.Reachers, st.reach != nil)
			}
		}
	}
	rep.Candidates = append(rep.Candidates, cands...)
	return nil
}

// reachingFirst puts the tests whose call graph reaches a static
// candidate (driver.Result.Reach) before the others, each part in its
// order: when the budget runs short, the tests left unchecked are those
// that can hold no candidate. It notes how many reach one.
func reachingFirst(pkg string, tests []string, reach map[string][]int, rep *Report) []string {
	if reach == nil {
		return tests
	}
	var first, rest []string
	for _, t := range tests {
		if len(reach[t]) > 0 {
			first = append(first, t)
		} else {
			rest = append(rest, t)
		}
	}
	rep.addNote(note.Order, pkg, "", "%d of %d tests reach a static candidate in the call graph; they are checked first", len(first), len(tests))
	return append(first, rest...)
}

// unreached says, for a note on the tests left unchecked, how many of
// them reach no static candidate (generated drivers are not in reach).
func unreached(tests []string, reach map[string][]int) string {
	n := 0
	for _, t := range tests {
		if r, ok := reach[t]; ok && len(r) == 0 {
			n++
		}
	}
	switch {
	case n == 0:
		return ""
	case n == len(tests):
		return " (none of them reaches a static candidate in the call graph)"
	}
	return fmt.Sprintf(" (%d of them reach no static candidate in the call graph)", n)
}

// driverShare: a package's generated drivers keep Budget/driverShare of
// its budget for themselves.
const driverShare = 10

// driversToRun returns the generated drivers to run: those driving a
// candidate that no recorded run of the package's tests held in two
// goroutines (a driver of a package without tests drives no candidate
// and always runs). It notes what it runs and what it leaves out.
func driversToRun(pkg string, generated []string, drivers map[string]driver.Driver, cov *coverage, rep *Report) []string {
	rep.DriversGenerated += len(generated)
	run := driversNeeded(generated, drivers, cov)
	covered := len(generated) - len(run)
	calls := make([]string, len(run))
	for i, t := range run {
		calls[i] = drivers[t].Calls + " of " + drivers[t].Type
	}
	if len(run) > 0 {
		rep.addNote(note.Driver, pkg, "", "running %d generated %s, calling two methods from two goroutines where no test did (%s)", len(run), plural("driver", len(run)), strings.Join(calls, "; "))
	}
	if covered > 0 {
		rep.addNote(note.Driver, pkg, "", "%d generated %s not run: the tests held their candidates in two goroutines", covered, plural("driver", covered))
	}
	return run
}

// driversNeeded returns, in order, the generated drivers driving a
// candidate that no run in cov held in two goroutines, or none at all.
func driversNeeded(generated []string, drivers map[string]driver.Driver, cov *coverage) []string {
	var run []string
	for _, t := range generated {
		d := drivers[t]
		need := len(d.Cands) == 0
		for _, c := range d.Cands {
			if !cov.held(c) {
				need = true
				break
			}
		}
		if need {
			run = append(run, t)
		}
	}
	return run
}

func plural(w string, n int) string {
	if n == 1 {
		return w
	}
	return w + "s"
}

// checkTests records, predicts and replays tests of pkg (in scratch),
// each test only while the work charged to acct is under limit; when cov
// is not nil, it also collects which goroutines ran which sites. If pre
// is not nil and records every one of tests (of others too, perhaps), the
// recordings are taken from it; its owner stops it. afterFirst, if not
// nil, runs once the tests' first runs are all predicted. If ho is not
// nil, the queues whose predictions limit cut are kept in it, and the
// tests' notes wait for its run (handOver).
func checkTests(ctx context.Context, b *record.Recorder, st statics, pkg string, tests []string, scratch string, opt Options, rep *Report, seen map[string]bool, acct *account, limit int64, cov *coverage, pre *recordAhead, afterFirst func(), ho *handOver) error {
	per := 4
	if len(tests) > 0 && isDriver(st.drivers, tests[0]) {
		per = 1 // generated drivers (driversToRun): each may wait out its bound
	}
	at := make([]int, len(tests)) // test index → its index in recs
	recs := pre
	for ti, t := range tests {
		at[ti] = ti
		if pre == nil {
			continue
		}
		if at[ti] = pre.index(t); at[ti] < 0 {
			recs = nil
		}
		// The directories newRecordAhead makes: the perturbed
		// recordings write there.
		if err := os.MkdirAll(filepath.Join(scratch, fmt.Sprintf("t%d", ti)), 0o755); err != nil {
			return err
		}
	}
	if recs == nil {
		var err error
		if recs, err = newRecordAhead(ctx, b, pkg, tests, scratch, opt, per); err != nil {
			return err
		}
		defer recs.stop()
		for ti := range at {
			at[ti] = ti
		}
	}
	normal := &plainRuns{ctx: ctx, b: b.Build, pkg: pkg, timeout: opt.Timeout}
	if per > 1 {
		// Build the uninstrumented tests while the rest is recorded and
		// checked (not for generated drivers, whose failures are skips).
		recs.whenFailed(func() { b.Build.PrebuildPlain(ctx, pkg) })
	}
	tcs := make([]*testCheck, len(tests))
	firsts := make([]record.Test, len(tests))
	// The package's source answers the same for every test: its files
	// are parsed once for all of them (per test, parsing them was a third
	// of the checker's own CPU time on Go's race testdata, 362 tests).
	selAlts, relocks := &selectAlts{dir: b.Build.Dirs[pkg]}, &relockSites{dir: b.Build.Dirs[pkg]}
	skipped := map[string]string{} // generated driver → why it skipped
	var early *earlyPerturbed
	defer func() {
		if early != nil {
			<-early.done // its processes and traces are gone before scratch is
		}
	}()
	// The early perturbed recordings are checked between the first runs'
	// replay rounds 0 and 1 (checkQueued's between), in their own queue:
	// the later rounds give the flood tests' share-cut predictions all
	// the budget left but the reserve, and on ants under go vet they took
	// it, leaving 8 of 12 perturbed recordings unchecked and ants.go:539
	// (TestPoolTuneScaleUp's children-first trace, ~170 units) not
	// reported (session 40). Which tests are recorded early depends only
	// on the first runs and their predictions (perturbable), so the order
	// is as deterministic as before; round 0's outcomes are settled
	// before them, so what an earlier run of a test tried (pruned) is not
	// predicted again, as in the later perturbed phase.
	var earlyKept *keptQueue
	earlyChecked := false
	between := func() func() {
		if early == nil {
			return nil
		}
		return func() {
			<-early.done
			if ctx.Err() != nil {
				return
			}
			earlyChecked = true
			plimit := limit
			if limit > 0 {
				plimit -= raceCharge(b.Build, pkg, tcs, seen)
			}
			earlyKept = checkQueued(ctx, b.Build, pkg, acct, plimit, reserveUnits(opt.Budget), opt, seen, rep, func(q *replayQueue, predict func(*testCheck, record.Test, string)) {
				checkPerturbedRuns(q, predict, pkg, tests, tcs, early.idx, early.runs, 1, acct, limit, plimit, opt, rep)
			}, nil)
		}
	}
	ho.keep(checkQueued(ctx, b.Build, pkg, acct, limit, reserveUnits(opt.Budget), opt, seen, rep, func(q *replayQueue, predict func(*testCheck, record.Test, string)) {
		q.unmeant = func(test string) bool {
			d, ok := st.drivers[test]
			return ok && d.Meant == ""
		}
		if len(tests) > 1 {
			// The later tests are recorded (recordAhead) while the
			// earlier ones' replays run.
			q.mu.Lock()
			q.crowded = true
			q.mu.Unlock()
		}
		// seq is the order the tests are checked in: tests' own, then
		// the tests deferred (waitsPlain), in their order again; later
		// holds a deferred test's recording.
		seq := make([]int, len(tests))
		for ti := range seq {
			seq[ti] = ti
		}
		later := map[int]record.Test{}
		for k := 0; k < len(seq); k++ {
			ti := seq[k]
			test := tests[ti]
			rt, deferred := later[ti]
			if !deferred {
				ok, spent := q.admit()
				if !ok {
					acct.spent = spent // as the note says
					rep.addNote(note.Budget, pkg, "", "%s; %d of %d tests not checked%s", acct.spentWhy(limit), len(tests)-ti, len(tests), unreached(tests[ti:], st.reach))
					// The tests deferred before the cut were admitted
					// in their turn: they are still checked.
					k = len(tests) - 1
					continue
				}
				opt.progress("check: %s %s: admitted, %d work units charged before it", pkg, test, spent)
			}
			q.setLeft(len(seq) - k)
			dir := filepath.Join(scratch, fmt.Sprintf("t%d", ti))
			tracePath := recs.paths[at[ti]]
			var excused string
			if isDriver(st.drivers, test) {
				// A failure the copied cleanup raised (a leak check's
				// goroutine snapshot) is not the calls' outcome (cmux's
				// SetReadTimeout pair).
				excused = driver.CleanupFailLog
			}
			if !deferred {
				rt = recs.get(at[ti])
				if !rt.Passed && !rt.TimedOut && (replay.Options{Excused: excused}).Excuses(rt.Output) {
					// A passing run, as its replays are (no note, no plain
					// run to tell the failure's kind).
					rt.Passed = true
				}
				if waitsPlain(rt, isDriver(st.drivers, test), per) && k < len(tests)-1 {
					// Checked after the package's other tests: what
					// comes next (a recording again, the normal run
					// and its build) is waited for, and the loop would
					// hold every later test's prediction and replays
					// behind it (ttlcache's Test_Cache_Get, which
					// counts allocations: its uninstrumented build
					// held the package's loop 2-4 s of its 6-10 s).
					// Its own check is the same later: what decides
					// it is its recording and its normal run, not the
					// other tests' (the order of the checks changes
					// which test shows a site combination first, not
					// whether it is reported).
					later[ti] = rt
					seq = append(seq, ti)
					opt.progress("check: %s %s: failed while recorded; checked after the others", pkg, test)
					continue
				}
			}
			// The tests that failed after it in its recording's process,
			// which failNote's normal run takes with it.
			failedWith := func() []string {
				if rt.Batched && per > 1 {
					return recs.failedAfter(at[ti])
				}
				return nil
			}
			if wantsPlain(rt) && !isDriver(st.drivers, test) {
				// A test that passes in a normal run is recorded again
				// before anything is taken from its recording: when the
				// package's tests change its directory's entries
				// (testbin.Private), in a directory of its own (diskv's
				// test-data/: recorded beside another process that kept
				// a file at the same path); then, if it still fails,
				// alone among the package's processes, and so are its
				// replays and controls if that passes (testbin.SetAlone:
				// a port or a path outside the directory that the
				// package's processes share, whose collision printed no
				// "address already in use").
				//
				// The package's first such test, alone in its process
				// with no uninstrumented build started, is recorded
				// again first: passing so, it needs no normal run, and
				// the normal run needs a build of its own (pubsub's
				// Example, whose output varies: 0.75 s of CPU, about a
				// fifth of its check, for a test that then passed
				// recorded again). Failing again, the normal run decides
				// the note as before (failNote), at the cost of that one
				// recording. (A test that would fail a normal run and
				// passes recorded again varies from run to run: its
				// normal run could have passed as well, and then it was
				// taken so too.)
				with := failedWith()
				passed := len(with) == 0 && !b.Build.PlainStarted(pkg)
				if !passed {
					ok, err := normal.passed(test, with)
					passed = err == nil && ok
				}
				if passed {
					dir := b.Build.Dirs[pkg]
					again := func(how string) {
						a := b.RecordTest(ctx, pkg, test, tracePath, opt.Timeout)
						rep.Time.Records++
						if a.Passed {
							opt.progress("check: %s %s: recorded again %s: passed", pkg, test, how)
							rep.Time.Record += rt.Wall
							rt = a
						} else {
							rep.Time.Record += a.Wall
						}
					}
					marked := testbin.Alone(dir, test) // a collision's message marked it
					if !marked && testbin.Mirrored(dir) {
						again("in a directory of its own")
					}
					if !rt.Passed {
						testbin.SetAlone(dir, test, true)
						again("alone")
						// Failing alone too, it collided with nothing:
						// its processes run beside the others' again.
						testbin.SetAlone(dir, test, marked || rt.Passed)
					}
				}
			}
			opt.progress("check: %s %s: %d events, %d goroutines recorded in %v", pkg, test, rt.Events, rt.Goroutines, rt.Wall.Round(time.Millisecond))
			rep.Time.Record += rt.Wall
			rep.Time.Records++
			rep.Tests++
			rep.Checked = append(rep.Checked, pkg+" "+test)
			rep.Events += rt.Events
			q.charge(recordCost(rt))
			if d, ok := st.drivers[test]; ok && !rt.TimedOut {
				why := driverSkip(rt)
				skipped[test] = why
				if strings.Contains(why, " does not return within ") {
					// Its replays would skip the same way, each after the
					// whole wait (testbin.EnvQuickDrivers).
					b.Build.QuickDriver(pkg, test)
				}
				rep.Drivers = append(rep.Drivers, DriverRun{Package: pkg, Test: test, Calls: d.Calls + " of " + d.Type, Skipped: why})
			}
			tc := &testCheck{ctx: ctx, b: b.Build, cands: st.cands, candIdx: st.candIdx, pkg: pkg, test: test, dir: dir, opt: opt, rep: rep, seen: seen, acct: acct, cov: cov, selAlts: selAlts, relocks: relocks}
			// The recording's log lines are no replay's failure (yamux's
			// "Connecting to tcp: [::]:<port>", which made no control
			// fail the same way as its schedule).
			// A run the event cap ended printed its lines up to there as
			// a passing one does: without the anomaly.
			tc.opt.Replay.Logged = replay.LogLines(rt.Output, rt.Passed || record.EndedAtCap(rt))
			tc.opt.Replay.Excused = excused
			if rt.TimedOut {
				rep.addNote(note.Timeout, pkg, test, "timed out after %v while recording; predicting from the partial trace", opt.Timeout)
			} else if why := skipped[test]; why != "" {
				rep.addNote(note.Driver, pkg, test, "generated driver skipped: %s", why)
			} else if strings.HasPrefix(rt.Truncated, "stalled: ") {
				// As a timeout, only sooner (rt/hang.go): no hang is
				// proven, so the test's failure is no baseline.
				rep.addNote(note.Timeout, pkg, test, "%s, so the recording ended it before its %v timeout; predicting from its trace", rt.Truncated, opt.Timeout)
			} else if strings.HasPrefix(rt.Truncated, "hung: ") {
				// It would hang without pecanvet too, in the schedule the
				// run took: no goroutine could ever move.
				rep.addNote(note.Trace, pkg, test, "%s, so the recording ended it; predicting from its trace", rt.Truncated)
				tc.baseline(rt)
			} else if record.EndedAtCap(rt) {
				// The recording ended the test at its event cap
				// (rt.endCapped; the prediction notes it): the failure
				// is the recorder's, no baseline for replays, which run
				// the whole test. Not run plain either (a plain build
				// for each package with a long test): a test that
				// fails without pecanvet after the cut fails the serial
				// controls of an effect-only violation too (control.go).
			} else if !rt.Passed {
				why, plain := failNote(normal, test, failedWith())
				if plain && isDriver(st.drivers, test) {
					// A generated driver fails by its calls' outcome
					// (its oracle takes no time): failing in a normal
					// run too, its calls interleaved there as well, so
					// its failures are still the interleaving's. (Its
					// plain binary lacked the driver until testbin's
					// Options.Extra: it "passed", or did not build.)
					why = "fails in a normal run too (a generated driver: its calls interleaved there as well); predicting from its trace anyway"
					plain = false
				}
				if plain {
					rep.addNote(note.Fails, pkg, test, "%s (a replay's failure is not credited to the anomaly)", why)
				} else {
					rep.addNote(note.Fails, pkg, test, "%s (a replay failing the same way is not credited to the anomaly)", why)
				}
				tc.baseline(rt)
				tc.opt.Replay.FailsPlain = plain
			}
			rt.Trace = tracePath
			predict(tc, rt, tracePath)
			tcs[ti], firsts[ti] = tc, rt
		}
		// Which tests the first seed records again is known once every
		// test is predicted (perturbable): its recording runs while this
		// phase's replays do, not after them.
		if opt.Perturb >= 1 && ctx.Err() == nil {
			if idx, _ := perturbable(tcs, firsts, true); len(idx) > 0 {
				early = &earlyPerturbed{idx: idx, done: make(chan struct{})}
				q.recording = early.done // the alone repeats wait for it
				opt.progress("check: %s: recording %d tests again, perturbed (seed 1), while the first runs' replays run", pkg, len(idx))
				go func() {
					defer close(early.done)
					early.runs = recordPerturbed(ctx, b, pkg, tests, firsts, idx, scratch, 1, opt)
				}()
			}
		}
		if afterFirst != nil {
			afterFirst()
		}
	}, between))
	ho.keep(earlyKept) // after the first runs' queue, as its phase ran
	// The race detector's runs for the pairs the first runs left start
	// now, beside the perturbed recordings (raceAhead).
	ahead := startRaceAhead(ctx, b.Build, pkg, acct, limit, opt, seen, tcs)
	defer ahead.stop()
	// The tests whose first run left nothing proved are recorded again
	// under perturbed schedules, a seed at a time, all in one process.
	for seed := 1; seed <= opt.Perturb && ctx.Err() == nil; seed++ {
		idx, late := perturbable(tcs, firsts, false)
		if len(idx) == 0 {
			break
		}
		if seed == 1 && earlyChecked {
			// The early ones were checked (or noted unchecked) between
			// the first runs' rounds; the replays may have added some
			// (all diverged).
			idx = slices.DeleteFunc(idx, func(ti int) bool { return slices.Contains(early.idx, ti) })
			late = 0
			for _, ti := range idx {
				if firsts[ti].Unstarted > 0 {
					late++
				}
			}
			if len(idx) == 0 {
				continue
			}
		}
		// What the race detector will charge for the pairs known so far
		// stays under limit: the perturbed recordings' replays stop
		// short of it (a later seed's rounds leave the reserve too).
		plimit, reserve := limit, int64(0)
		if limit > 0 {
			plimit -= raceCharge(b.Build, pkg, tcs, seen)
			if seed < opt.Perturb {
				reserve = reserveUnits(opt.Budget)
			}
		}
		if acct.spent >= plimit || acct.netPast() {
			rep.addNote(note.Budget, pkg, "", "%s%s; %d tests not recorded again perturbed (seed %d)", acct.spentWhy(plimit), raceHeld(limit-plimit), len(idx), seed)
			break
		}
		why := ""
		if late > 0 {
			why = fmt.Sprintf("; %d with goroutines that never ran", late)
		}
		var runs map[int]record.Test
		rest := idx
		if seed == 1 && early != nil && !earlyChecked {
			// The early recording has the tests its first runs asked
			// for; the replays may have added some (all diverged).
			<-early.done
			runs = early.runs
			rest = slices.DeleteFunc(slices.Clone(idx), func(ti int) bool { return slices.Contains(early.idx, ti) })
		}
		if len(rest) > 0 {
			opt.progress("check: %s: recording %d tests again, perturbed (seed %d%s)", pkg, len(rest), seed, why)
			more := recordPerturbed(ctx, b, pkg, tests, firsts, rest, scratch, seed, opt)
			if runs == nil {
				runs = more
			} else {
				maps.Copy(runs, more)
			}
		}
		ho.keep(checkQueued(ctx, b.Build, pkg, acct, plimit, reserve, opt, seen, rep, func(q *replayQueue, predict func(*testCheck, record.Test, string)) {
			checkPerturbedRuns(q, predict, pkg, tests, tcs, idx, runs, seed, acct, limit, plimit, opt, rep)
		}, nil))
	}
	if early != nil {
		// Not used when the loop stopped before seed 1 (budget spent):
		// it writes into scratch, which goes when this returns.
		<-early.done
	}
	confirmUnordered(ctx, b.Build, pkg, acct, limit, opt, seen, rep, tcs, ahead)
	if ho != nil {
		ho.tcs = append(ho.tcs, tcs...)
		return nil
	}
	for _, tc := range tcs {
		if tc != nil {
			tc.notes()
		}
	}
	return nil
}

// checkPerturbedRuns checks, in q (a perturbed phase's queue under
// plimit, which holds limit-plimit for the race detector), the runs
// recorded again perturbed with seed of the tests idx: each admitted in
// test order, charged and predicted, the rest noted unchecked.
func checkPerturbedRuns(q *replayQueue, predict func(*testCheck, record.Test, string), pkg string, tests []string, tcs []*testCheck, idx []int, runs map[int]record.Test, seed int, acct *account, limit, plimit int64, opt Options, rep *Report) {
	q.mu.Lock()
	q.held = limit - plimit
	q.mu.Unlock()
	var unchecked []string
	for k, ti := range idx { // in test order: what is credited where does not depend on timing
		q.setLeft(len(idx) - k)
		prt := runs[ti]
		if prt.TimedOut {
			rep.addNote(note.Timeout, pkg, tests[ti], "timed out after %v while recording it perturbed (seed %d); predicting from the partial trace", opt.Timeout, seed)
		} else if strings.HasPrefix(prt.Truncated, "stalled: ") {
			rep.addNote(note.Timeout, pkg, tests[ti], "recorded perturbed (seed %d): %s, so the recording ended it; predicting from its trace", seed, prt.Truncated)
		}
		rep.Time.Record += prt.Wall
		rep.Time.Records++
		rep.Events += prt.Events
		if ok, spent := q.admit(); ok {
			q.charge(recordCost(prt))
			predict(tcs[ti], prt, prt.Trace)
		} else {
			acct.spent = spent // as the note says
			unchecked = append(unchecked, tests[ti])
		}
	}
	if len(unchecked) > 0 {
		rep.addNote(note.Budget, pkg, "", "%s%s; %d of %d tests recorded again perturbed (seed %d) not checked: %s", acct.spentWhy(plimit), raceHeld(limit-plimit), len(unchecked), len(idx), seed, strings.Join(unchecked, ", "))
	}
}

// raceHeld says, for a note, what the perturbed recordings' limit held
// under the phase's for the race detector.
func raceHeld(held int64) string {
	if held <= 0 {
		return ""
	}
	return fmt.Sprintf(" (%d work units held for the race detector)", held)
}

// earlyPerturbed is the first seed's perturbed recording of the tests idx,
// started before the first runs' replays end (checkTests); runs is set
// once done is closed.
type earlyPerturbed struct {
	idx  []int
	runs map[int]record.Test
	done chan struct{}
}

// perturbable returns the indexes of the tests to record again perturbed
// (testCheck.wantsPerturbed), and how many of them forked a goroutine that
// never ran. Early (before the replays end, for the first seed's
// recording that runs beside them) it depends on the first runs and on
// what their predictions counted only; later the tests whose predictions
// all diverged in their replays join them.
func perturbable(tcs []*testCheck, firsts []record.Test, early bool) (idx []int, late int) {
	for ti, tc := range tcs {
		if tc != nil && tc.wantsPerturbed(firsts[ti], early) {
			idx = append(idx, ti)
			if firsts[ti].Unstarted > 0 {
				late++
			}
		}
	}
	return idx, late
}

// isDriver reports whether test is one of the generated drivers.
func isDriver(drivers map[string]driver.Driver, test string) bool {
	_, ok := drivers[test]
	return ok
}

// driverSkip is why a generated driver skipped itself (its t.Skipf line,
// "pecanvet driver: …"), or "".
func driverSkip(rt record.Test) string {
	// A process that failed after the test skipped (a TestMain's leak
	// check finding the calls that did not return: ttlcache's goleak and
	// its Start) is no failing driver: recorded as failed, it was run
	// again uninstrumented to tell why, 5 s more for a known skip.
	if !rt.Skipped && !strings.Contains(rt.Output, "--- SKIP: "+rt.Name+" (") {
		return ""
	}
	const mark = "pecanvet driver: "
	i := strings.Index(rt.Output, mark)
	if i < 0 {
		// Not one of the driver's own skips (a t.Skip of code it
		// calls): its last line of output says why, if anything.
		last := ""
		for _, l := range strings.Split(rt.Output, "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "=== ") && !strings.HasPrefix(l, "--- ") {
				last = l
			}
		}
		if last == "" {
			return "it skipped itself without saying why"
		}
		return "it skipped: " + last
	}
	line := rt.Output[i+len(mark):]
	if j := strings.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	return strings.TrimSpace(line)
}

// writeDrivers writes the driver files (overlay path → source) under dir,
// each at its package directory's path relative to base (the check's
// directory), keeping the overlay's file name.
func writeDrivers(dir, base string, files map[string][]byte) error {
	for path, src := range files {
		rel, err := filepath.Rel(base, filepath.Dir(path))
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			rel = filepath.Base(filepath.Dir(path))
		}
		out := filepath.Join(dir, rel, filepath.Base(path))
		if err := os.MkdirAll(filepath.Dir(out), 0o777); err != nil {
			return fmt.Errorf("-driversdir: %w", err)
		}
		if err := os.WriteFile(out, src, 0o666); err != nil {
			return fmt.Errorf("-driversdir: %w", err)
		}
	}
	return nil
}
