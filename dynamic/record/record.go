// Package record records concrete traces of a package's tests.
//
// A Recorder runs each selected test of an instrumented build
// (dynamic/testbin) with the recorder runtime switched on, and keeps one
// trace per test: one test per process (RecordTest), or a package's test
// functions in a few processes, each test's trace in a file of its own
// (RecordBatch). Every run has a time bound; a test that hangs is killed
// with its process group and its trace kept, marked truncated.
package record

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/instrument"
	"github.com/pecanvet/pecanvet/dynamic/testbin"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/internal/note"
)

// DefaultTimeout bounds the recording of one test whose Options leave
// Timeout zero.
const DefaultTimeout = 2 * time.Minute

// Options configure a recording.
type Options struct {
	Dir        string        // directory inside the user's module (the go command's working directory)
	Patterns   []string      // package patterns; default "."
	Run        string        // regexp selecting tests (as go test -run); default all
	OutDir     string        // where traces go; default a temporary directory
	Timeout    time.Duration // per test; 0: DefaultTimeout
	Plain      bool          // also time each test uninstrumented
	BuildFlags []string
	Progress   io.Writer // progress lines, if not nil
}

// Test is the outcome of recording one test.
type Test struct {
	Package    string // import path
	Name       string
	Trace      string // path of the trace file
	Events     int
	Goroutines int
	// Objects counts the object names the trace defines (0: unknown), for
	// predict.ReadPrefixSized.
	Objects int
	Active  int // goroutines with events other than forks and joins
	// Unstarted counts the goroutines forked in the trace that never ran
	// in it: what they race with the trace cannot show.
	Unstarted int
	// RunOnBefore and RunOnAfter sum, over the go statements of the run,
	// the operations the parent went on with before its next pause
	// (a sleep, a receive, a wait), before its child began and after:
	// how far a children-first and a parents-first perturbed run
	// (rt.EnvParentsFirst) would move the child.
	RunOnBefore, RunOnAfter int
	// BulkBeforeChild counts the runs of 256 accesses or more at one
	// site (rt's cap on a copy's parts: a copy of a larger array records
	// only the parts other accesses made known when it ran) that a
	// goroutine made while a child it forked had not begun: what the
	// child touches later in the copied value shares nothing with the
	// copy in the trace, though nothing ordered the two.
	BulkBeforeChild int
	// EarlyNotify counts the Conds that a goroutine signalled or
	// broadcast while a child it had forked since its last pause (a
	// sleep, a receive, a wait: runsOn) had not begun, and that no Wait in
	// the trace returned from: the notify found no waiter, and goroutines
	// that could have waited began after it, so the trace holds no Wait
	// for a lost signal to be predicted from. ants v2.12.1's
	// TestPoolTuneScaleUp forks five submitters and goes on at once to
	// Tune's Broadcast; in a run where they begin after it they read the
	// new capacity and never wait (ants.go:539).
	EarlyNotify int
	Shared      int // locations accessed by two or more goroutines, at least one writing
	Wall        time.Duration
	PlainWall   time.Duration // 0 unless Options.Plain
	Passed      bool
	Skipped     bool // the test skipped itself (t.Skip): nothing to record again
	// Batched: recorded in a process of many tests (RecordBatch), so the
	// trace ends with the test function, as a replay in a process of many
	// replays does (replay.RunBatch); one recorded alone goes on to the
	// process's end (the test goroutine's own end, what runs after it).
	Batched   bool
	TimedOut  bool
	Truncated string // why the trace is incomplete, if it is
	Output    string // the test's output (tail)
	// Clock: the clock at the test's start in the recorded run (the
	// runtime's file beside the trace, rt.ClockSuffix), zero if unknown;
	// its replays start their clock at the same place in the minute
	// (replay.Options.Clock).
	Clock time.Time
}

// OwnWall is the test's own time, as go test printed it at its end
// ("--- PASS: Name (0.01s)", to the hundredth), or Wall if it printed
// none (it hung, or was cut). Wall also counts the process's start, or the
// wait for its output to be read: under load (2 cores, load 30) the
// corpus's cancelhang, 31 events, was recorded in 3 to 127 ms in 15 runs
// of 18 and in 300 to 384 ms in the other 3.
func (t Test) OwnWall() time.Duration {
	i, mark := -1, ""
	for _, res := range []string{"PASS", "FAIL", "SKIP"} {
		m := "--- " + res + ": " + t.Name + " ("
		if k := strings.LastIndex(t.Output, m); k > i {
			i, mark = k, m
		}
	}
	if i < 0 {
		return t.Wall
	}
	rest := t.Output[i+len(mark):]
	j := strings.Index(rest, "s)")
	if j < 0 {
		return t.Wall
	}
	sec, err := strconv.ParseFloat(rest[:j], 64)
	if err != nil || sec < 0 {
		return t.Wall
	}
	return time.Duration(sec * float64(time.Second))
}

// setStats fills the test's counts from its trace at path.
func (t *Test) setStats(path string) error {
	ti, err := traceStats(path)
	if err != nil {
		return err
	}
	t.Events, t.Goroutines, t.Active, t.Shared, t.Unstarted, t.Truncated = ti.events, ti.goroutines, ti.active, ti.shared, ti.unstarted, ti.truncated
	t.Objects = ti.objects
	t.RunOnBefore, t.RunOnAfter = ti.runOnBefore, ti.runOnAfter
	t.BulkBeforeChild, t.EarlyNotify = ti.bulkBeforeChild, ti.earlyNotify
	t.Clock = readClock(path)
	return nil
}

// copyStats sets the counts setStats sets to those of s, read off the
// same trace.
func (t *Test) copyStats(s *Test) {
	t.Events, t.Goroutines, t.Active, t.Shared, t.Unstarted, t.Truncated = s.Events, s.Goroutines, s.Active, s.Shared, s.Unstarted, s.Truncated
	t.Objects = s.Objects
	t.RunOnBefore, t.RunOnAfter = s.RunOnBefore, s.RunOnAfter
	t.BulkBeforeChild, t.EarlyNotify = s.BulkBeforeChild, s.EarlyNotify
	t.Clock = s.Clock
}

// clockSuffix is rt.ClockSuffix.
const clockSuffix = ".clock"

// readClock reads the clock the runtime noted at the start of the test
// recorded to tracePath, zero if it noted none.
func readClock(tracePath string) time.Time {
	b, err := os.ReadFile(tracePath + clockSuffix)
	if err != nil {
		return time.Time{}
	}
	ns, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil || ns <= 0 {
		return time.Time{}
	}
	return time.Unix(0, ns)
}

// A Recorder records tests with the instrumented binaries of a build.
type Recorder struct {
	*testbin.Build
	// MaxEvents, if positive, stops each recording at that many events,
	// the trace marked cut (rt.EnvMaxEvents): a checker that predicts from
	// a prefix need not pay for the rest. Replays are not bounded.
	MaxEvents int
	// MaxGoroutines, if positive, stops each recording before the event
	// that would name one goroutine more (rt.EnvMaxGoroutines), for a
	// checker that predicts from that prefix.
	MaxGoroutines int
}

func (o *Options) progress(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, format+"\n", args...)
	}
}

// env is env plus what every recording process gets.
func (rec *Recorder) env(env []string) []string {
	if rec.MaxEvents > 0 {
		env = append(env[:len(env):len(env)], "PECANVET_MAX_EVENTS="+strconv.Itoa(rec.MaxEvents))
	}
	if rec.MaxGoroutines > 0 {
		env = append(env[:len(env):len(env)], "PECANVET_MAX_GOROUTINES="+strconv.Itoa(rec.MaxGoroutines))
	}
	return env
}

// NewBuild instruments the packages and builds one test binary per package
// that has tests, ready to record: what Record, benchmarks and tests start
// from (check runs those stages itself, with generated drivers). A package
// that does not compile yields the compiler's own messages as the error.
func NewBuild(ctx context.Context, opt Options) (*Recorder, error) {
	start := time.Now()
	inst, err := instrument.Instrument(ctx, instrument.Options{Dir: opt.Dir, Patterns: opt.Patterns, BuildFlags: opt.BuildFlags})
	if err != nil {
		return nil, err
	}
	opt.progress("instrument: instrumented %d packages (and %d packages they import) in %v", len(inst.Packages), len(inst.Deps), time.Since(start).Round(time.Millisecond))
	b, err := testbin.New(ctx, inst, testbin.Options{Dir: opt.Dir, BuildFlags: opt.BuildFlags, Plain: opt.Plain, Progress: opt.Progress})
	if err != nil {
		return nil, err
	}
	return &Recorder{Build: b}, nil
}

// Record records every selected test of the packages.
func Record(ctx context.Context, opt Options) ([]Test, []note.Note, error) {
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultTimeout
	}
	b, err := NewBuild(ctx, opt)
	if err != nil {
		return nil, nil, err
	}
	defer b.Close()
	notes := slices.Concat(b.Inst.Notes, b.Notes)
	out := opt.OutDir
	if out == "" {
		if out, err = os.MkdirTemp("", "pecanvet-traces-"); err != nil {
			return nil, nil, err
		}
	}
	// Tests run in their package's directory: a relative trace path
	// would land there, or nowhere.
	if out, err = filepath.Abs(out); err != nil {
		return nil, nil, err
	}
	var results []Test
	pkgs := make([]string, 0, len(b.Binaries))
	for p := range b.Binaries {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, pkg := range pkgs {
		tests, err := b.Tests(ctx, pkg, opt.Run)
		if err != nil {
			return results, notes, err
		}
		if len(tests) == 0 {
			notes = append(notes, note.New(note.NoTests, pkg, "", "no tests match"))
			continue
		}
		dir := filepath.Join(out, strings.ReplaceAll(pkg, "/", "_"))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return results, notes, err
		}
		for _, name := range tests {
			if opt.Progress != nil {
				fmt.Fprintf(opt.Progress, "recording %s %s\n", pkg, name)
			}
			t := b.RecordTest(ctx, pkg, name, filepath.Join(dir, name+".trace"), opt.Timeout)
			if opt.Plain {
				pr := testbin.RunTest(ctx, b.Plain[pkg], b.Dirs[pkg], name, nil, opt.Timeout)
				t.PlainWall = pr.Wall
			}
			results = append(results, t)
		}
	}
	return results, notes, nil
}

// RecordTest runs one test with the recorder on, writing its trace to path.
func (rec *Recorder) RecordTest(ctx context.Context, pkg, name, path string, timeout time.Duration) Test {
	return rec.RecordTestEnv(ctx, pkg, name, path, timeout, nil)
}

// RecordTestEnv is RecordTest with extra environment for the test process
// (a perturbation seed: rt.EnvPerturb).
func (rec *Recorder) RecordTestEnv(ctx context.Context, pkg, name, path string, timeout time.Duration, env []string) Test {
	os.Remove(path)
	os.Remove(path + clockSuffix)
	fromTest := rec.TestEnv(pkg, name)
	env = rec.env(env)
	r := testbin.RunTest(ctx, rec.Binaries[pkg], rec.Dirs[pkg], name, append(append([]string{"PECANVET_TRACE=" + path}, fromTest...), env...), timeout)
	if _, err := os.Stat(path); err != nil && len(fromTest) > 0 && !r.TimedOut && ctx.Err() == nil {
		// The test never started its trace (rt.TestStart): its file was
		// not instrumented, or its *testing.T has no name. Record it,
		// and replay it, from process start.
		rec.SetFromInit(pkg, name)
		r = testbin.RunTest(ctx, rec.Binaries[pkg], rec.Dirs[pkg], name, append([]string{"PECANVET_TRACE=" + path}, env...), timeout)
	}
	t := Test{Package: pkg, Name: name, Trace: path, Wall: r.Wall, Passed: r.Passed, TimedOut: r.TimedOut, Output: r.Output,
		Skipped: r.Passed && strings.Contains(r.Output, "--- SKIP: "+name+" (")}
	if err := t.setStats(path); os.IsNotExist(err) {
		t.Truncated = "no trace written"
	} else if err != nil {
		t.Truncated = err.Error()
	}
	if r.TimedOut {
		t.Truncated = fmt.Sprintf("timed out after %v", timeout)
	}
	return t
}

// SharedLocations counts the memory locations that two or more goroutines
// access, at least one of them writing (PECAN's SV column).
func SharedLocations(tr *trace.Trace) int {
	sh := newSharedCounter()
	for _, e := range tr.Events {
		sh.add(e)
	}
	return sh.count()
}
