// Package record records concrete traces of a package's tests: it builds
// the package's test binary instrumented (dynamic/instrument, through
// -overlay, so the user's files are never touched) once per package, runs
// each selected test in its own process with the recorder switched on, and
// keeps one trace per test. Every run has a time bound; a test that hangs
// is killed with its process group and its trace kept, marked truncated.
//
// The same machinery runs a test under a replay schedule (RunTest with
// extra environment), which is how the replayer reuses it.
package record

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/instrument"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/static/driver"
)

// Options configure a recording.
type Options struct {
	Dir        string        // directory inside the user's module (the go command's working directory)
	Patterns   []string      // package patterns; default "."
	Run        string        // regexp selecting tests (as go test -run); default all
	OutDir     string        // where traces go; default a temporary directory
	Timeout    time.Duration // per test; default 2m
	Plain      bool          // also time each test uninstrumented
	BuildFlags []string
	Progress   io.Writer // progress lines, if not nil
	// Drivers generates test drivers (static/driver): for the static
	// candidates of packages with tests, and for packages without tests.
	// The check runs a package's candidate drivers only when its tests
	// did not reach their candidates.
	Drivers bool
	// MaxEvents, if positive, stops each recording at that many events,
	// the trace marked cut (rt.EnvMaxEvents): a checker that predicts from
	// a prefix need not pay for the rest. Replays are not bounded.
	MaxEvents int
}

// Test is the outcome of recording one test.
type Test struct {
	Package    string // import path
	Name       string
	Trace      string // path of the trace file
	Events     int
	Goroutines int
	Active     int // goroutines with events other than forks and joins
	Shared     int // locations accessed by two or more goroutines, at least one writing
	Wall       time.Duration
	PlainWall  time.Duration // 0 unless Options.Plain
	Passed     bool
	Skipped    bool // the test skipped itself (t.Skip): nothing to record again
	// Batched: recorded in a process of many tests (RecordBatch), so the
	// trace ends with the test function, as a replay in a process of many
	// replays does (replay.RunBatch); one recorded alone goes on to the
	// process's end (the test goroutine's own end, what runs after it).
	Batched   bool
	TimedOut  bool
	Truncated string // why the trace is incomplete, if it is
	Output    string // the test's output (tail)
}

// Build is an instrumented build of some packages: test binaries ready to
// run under the recorder or a replay schedule.
type Build struct {
	Inst     *instrument.Result
	Binaries map[string]string // import path → instrumented test binary
	Plain    map[string]string // import path → uninstrumented test binary (if built)
	Dirs     map[string]string // import path → package directory
	Notes    []string
	// Drivers are the generated driver tests (static/driver) built into
	// each package's test binary, by import path (Options.Drivers).
	Drivers map[string][]driver.Driver
	// Candidates are the static candidates of each package with tests,
	// with their drivers (Options.Drivers).
	Candidates map[string][]driver.Candidate
	// Reach says which tests' call graphs reach which candidates
	// (driver.Result.Reach).
	Reach map[string]map[string][]int
	tmp   string
	opt   Options // what the build was made with (PlainBinary)

	mu       sync.Mutex
	fromInit map[string]bool           // "pkg test" → recorded from process start (TestEnv)
	listed   map[string]map[string]int // import path → test → its place in the binary's -test.list

	raceMu sync.Mutex
	race   map[string]*raceBuild // import path → -race binary, built or being built
}

func (o *Options) progress(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, format+"\n", args...)
	}
}

// recordEnv is env plus what every recording process gets.
func (b *Build) recordEnv(env []string) []string {
	if b.opt.MaxEvents > 0 {
		env = append(env[:len(env):len(env)], "PECANVET_MAX_EVENTS="+strconv.Itoa(b.opt.MaxEvents))
	}
	return env
}

// Close removes the build's temporary files.
func (b *Build) Close() error {
	var errs []error
	// A -race build started in the background writes into b.tmp.
	b.raceMu.Lock()
	for _, rb := range b.race {
		<-rb.done
	}
	b.raceMu.Unlock()
	if b.Inst != nil {
		errs = append(errs, b.Inst.Cleanup())
	}
	if b.tmp != "" {
		errs = append(errs, os.RemoveAll(b.tmp))
	}
	return errors.Join(errs...)
}

// NewBuild instruments the packages and builds one test binary per package
// that has tests. A package that does not compile yields the compiler's
// own messages as the error.
func NewBuild(ctx context.Context, opt Options) (*Build, error) {
	pats := opt.Patterns
	if len(pats) == 0 {
		pats = []string{"."}
	}
	var extra map[string][]byte
	var drivers *driver.Result
	if opt.Drivers {
		var err error
		if drivers, err = driver.Generate(ctx, opt.Dir, pats, opt.BuildFlags); err != nil {
			return nil, err
		}
		extra = drivers.Files
	}
	start := time.Now()
	inst, err := instrument.Instrument(ctx, instrument.Options{Dir: opt.Dir, Patterns: pats, BuildFlags: opt.BuildFlags, Extra: extra})
	if err != nil {
		return nil, err
	}
	opt.progress("record: instrumented %d packages (and %d of the module's packages they import) in %v", len(inst.Packages), len(inst.Deps), time.Since(start).Round(time.Millisecond))
	b := &Build{Inst: inst, Binaries: map[string]string{}, Plain: map[string]string{}, Dirs: map[string]string{}, Notes: inst.Notes, opt: opt}
	if drivers != nil {
		b.Drivers = drivers.Drivers
		b.Candidates = drivers.Candidates
		b.Reach = drivers.Reach
		b.Notes = append(b.Notes, drivers.Notes...)
	}
	b.tmp, err = os.MkdirTemp("", "pecanvet-bin-")
	if err != nil {
		b.Close()
		return nil, err
	}
	for i, p := range inst.Packages {
		if !p.Tests {
			b.Notes = append(b.Notes, p.ImportPath+": no test files")
			continue
		}
		b.Dirs[p.ImportPath] = p.Dir
		bin := filepath.Join(b.tmp, fmt.Sprintf("p%d.test", i))
		args := append([]string{"test", "-c", "-o", bin, "-vet=off", "-overlay=" + inst.Overlay}, opt.BuildFlags...)
		start := time.Now()
		if err := goCmd(ctx, opt.Dir, append(args, p.ImportPath)...); err != nil {
			b.Close()
			return nil, fmt.Errorf("building %s instrumented: %w", p.ImportPath, err)
		}
		opt.progress("record: built %s's tests instrumented in %v", p.ImportPath, time.Since(start).Round(time.Millisecond))
		b.Binaries[p.ImportPath] = bin
		if opt.Plain {
			plain := filepath.Join(b.tmp, fmt.Sprintf("p%d.plain.test", i))
			args := append([]string{"test", "-c", "-o", plain, "-vet=off"}, opt.BuildFlags...)
			if err := goCmd(ctx, opt.Dir, append(args, p.ImportPath)...); err != nil {
				b.Close()
				return nil, fmt.Errorf("building %s: %w", p.ImportPath, err)
			}
			b.Plain[p.ImportPath] = plain
		}
	}
	return b, nil
}

// PlainBinary returns the package's uninstrumented test binary, building it
// on first use: to tell a test that fails in a normal run from one that
// fails only instrumented.
func (b *Build) PlainBinary(ctx context.Context, pkg string) (string, error) {
	if bin := b.Plain[pkg]; bin != "" {
		return bin, nil
	}
	if b.Binaries[pkg] == "" {
		return "", fmt.Errorf("%s: no test binary", pkg)
	}
	bin := b.Binaries[pkg] + ".plain"
	args := append([]string{"test", "-c", "-o", bin, "-vet=off"}, b.opt.BuildFlags...)
	if err := goCmd(ctx, b.opt.Dir, append(args, pkg)...); err != nil {
		return "", fmt.Errorf("building %s: %w", pkg, err)
	}
	b.Plain[pkg] = bin
	return bin, nil
}

// RaceBinary returns the package's test binary built with -race and
// without instrumentation, building it on first use (or waiting for
// PrebuildRace's build): Go's race detector confirms the races that no
// schedule runs back to back (replay/racerun).
func (b *Build) RaceBinary(ctx context.Context, pkg string) (string, error) {
	rb := b.raceBuild(ctx, pkg)
	select {
	case <-rb.done:
		return rb.bin, rb.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// PrebuildRace starts building RaceBinary's binary in the background, if
// it is not built or being built.
func (b *Build) PrebuildRace(ctx context.Context, pkg string) { b.raceBuild(ctx, pkg) }

type raceBuild struct {
	done chan struct{}
	bin  string
	err  error
}

func (b *Build) raceBuild(ctx context.Context, pkg string) *raceBuild {
	b.raceMu.Lock()
	defer b.raceMu.Unlock()
	if rb := b.race[pkg]; rb != nil {
		return rb
	}
	if b.race == nil {
		b.race = map[string]*raceBuild{}
	}
	rb := &raceBuild{done: make(chan struct{})}
	b.race[pkg] = rb
	go func() {
		defer close(rb.done)
		if b.Binaries[pkg] == "" {
			rb.err = fmt.Errorf("%s: no test binary", pkg)
			return
		}
		bin := b.Binaries[pkg] + ".race"
		args := []string{"test", "-c", "-race", "-o", bin, "-vet=off"}
		if !hasFlag(b.opt.BuildFlags, "ldflags") {
			// Linking without the symbol table and DWARF is a third
			// faster; race reports need only the runtime's line tables.
			args = append(args, "-ldflags=-s -w")
		}
		args = append(args, b.opt.BuildFlags...)
		if err := goCmd(ctx, b.opt.Dir, append(args, pkg)...); err != nil {
			rb.err = fmt.Errorf("building %s with -race: %w", pkg, err)
			return
		}
		rb.bin = bin
	}()
	return rb
}

// hasFlag reports whether flags set the go command flag name.
func hasFlag(flags []string, name string) bool {
	for _, f := range flags {
		f = strings.TrimLeft(f, "-")
		if f == name || strings.HasPrefix(f, name+"=") {
			return true
		}
	}
	return false
}

// goCmd runs the go command and returns its output as the error on failure.
func goCmd(ctx context.Context, dir string, args ...string) error {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(out.String())
		if msg == "" {
			msg = err.Error()
		}
		return errors.New(msg)
	}
	return nil
}

// Tests lists the tests of a package's binary that match run.
func (b *Build) Tests(ctx context.Context, pkg, run string) ([]string, error) {
	bin := b.Binaries[pkg]
	if bin == "" {
		return nil, fmt.Errorf("%s: no test binary", pkg)
	}
	var re *regexp.Regexp
	if run != "" {
		var err error
		if re, err = regexp.Compile(run); err != nil {
			return nil, fmt.Errorf("-run: %v", err)
		}
	}
	listed, err := b.list(ctx, pkg)
	if err != nil {
		return nil, err
	}
	// What go test runs: tests, examples with output (the only ones the
	// binary lists) and fuzz targets' seed corpora; benchmarks, a few
	// iterations each (testArgs), when the package has nothing else.
	var names, benchmarks []string
	for _, l := range listed {
		if re != nil && !re.MatchString(l) {
			continue
		}
		switch {
		case strings.HasPrefix(l, "Test"), strings.HasPrefix(l, "Example"), strings.HasPrefix(l, "Fuzz"):
			names = append(names, l)
		case strings.HasPrefix(l, "Benchmark"):
			benchmarks = append(benchmarks, l)
		}
	}
	if len(names) == 0 {
		names = benchmarks
	}
	return names, nil
}

// list returns what the package's test binary lists (-test.list), in its
// order: the order in which it runs its tests.
func (b *Build) list(ctx context.Context, pkg string) ([]string, error) {
	cmd := exec.CommandContext(ctx, b.Binaries[pkg], "-test.list", ".")
	cmd.Dir = b.Dirs[pkg]
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: listing tests: %v", pkg, err)
	}
	var names []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			names = append(names, l)
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.listed == nil {
		b.listed = map[string]map[string]int{}
	}
	b.listed[pkg] = make(map[string]int, len(names))
	for i, n := range names {
		b.listed[pkg][n] = i
	}
	return names, nil
}

// inRunOrder returns tests in the order the package's test binary runs
// them (names it does not list last, as given): the caller may have
// ordered them otherwise (the tests reaching a static candidate first).
func (b *Build) inRunOrder(ctx context.Context, pkg string, tests []string) []string {
	b.mu.Lock()
	idx := b.listed[pkg]
	b.mu.Unlock()
	if idx == nil {
		if _, err := b.list(ctx, pkg); err != nil {
			return tests
		}
		b.mu.Lock()
		idx = b.listed[pkg]
		b.mu.Unlock()
	}
	out := append([]string(nil), tests...)
	sort.SliceStable(out, func(i, j int) bool {
		a, oka := idx[out[i]]
		c, okc := idx[out[j]]
		return oka && (!okc || a < c)
	})
	return out
}

// testArgs are the test binary's flags that run test (a test, example,
// fuzz target or benchmark).
func testArgs(test string) []string {
	sel := "^" + regexp.QuoteMeta(test) + "$"
	if strings.HasPrefix(test, "Benchmark") {
		// A few iterations, not one: b.RunParallel's goroutines share
		// b.N, and at 1x only one of them runs the body.
		return []string{"-test.run", "^$", "-test.bench", sel, "-test.benchtime", "4x"}
	}
	return []string{"-test.run", sel}
}

// Run is one execution of a test binary.
type Run struct {
	Wall     time.Duration
	Passed   bool
	TimedOut bool
	Output   string
}

// RunTest runs one test of bin in dir with extra environment, killing its
// process group after timeout.
func RunTest(ctx context.Context, bin, dir, test string, env []string, timeout time.Duration) Run {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// -test.timeout slightly above ours makes the test binary itself dump
	// goroutines if our kill somehow does not land.
	cmd := exec.Command(bin, append(testArgs(test), "-test.count=1", "-test.v",
		"-test.timeout", (timeout+30*time.Second).String())...)
	cmd.Dir = dir
	tmp, rmTmp := TempEnv()
	defer rmTmp()
	cmd.Env = append(append(os.Environ(), env...), tmp)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out tailBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	r := Run{}
	if err := cmd.Start(); err != nil {
		r.Output = err.Error()
		return r
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		r.TimedOut = true
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err = <-done
	}
	r.Wall = time.Since(start)
	r.Passed = err == nil && !r.TimedOut
	r.Output = out.String()
	return r
}

// tailBuffer keeps the last 64 KiB written to it.
type tailBuffer struct{ b []byte }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 64<<10 {
		t.b = append(t.b[:0], t.b[len(t.b)-(64<<10):]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string { return string(t.b) }

// Record records every selected test of the packages.
func Record(ctx context.Context, opt Options) ([]Test, []string, error) {
	if opt.Timeout <= 0 {
		opt.Timeout = 2 * time.Minute
	}
	b, err := NewBuild(ctx, opt)
	if err != nil {
		return nil, nil, err
	}
	defer b.Close()
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
			return results, b.Notes, err
		}
		if len(tests) == 0 {
			b.Notes = append(b.Notes, pkg+": no tests match")
			continue
		}
		dir := filepath.Join(out, strings.ReplaceAll(pkg, "/", "_"))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return results, b.Notes, err
		}
		for _, name := range tests {
			if opt.Progress != nil {
				fmt.Fprintf(opt.Progress, "recording %s %s\n", pkg, name)
			}
			t := b.RecordTest(ctx, pkg, name, filepath.Join(dir, name+".trace"), opt.Timeout)
			if opt.Plain {
				pr := RunTest(ctx, b.Plain[pkg], b.Dirs[pkg], name, nil, opt.Timeout)
				t.PlainWall = pr.Wall
			}
			results = append(results, t)
		}
	}
	return results, b.Notes, nil
}

// RecordTest runs one test with the recorder on, writing its trace to path.
func (b *Build) RecordTest(ctx context.Context, pkg, name, path string, timeout time.Duration) Test {
	return b.RecordTestEnv(ctx, pkg, name, path, timeout, nil)
}

// RecordTestEnv is RecordTest with extra environment for the test process
// (a perturbation seed: rt.EnvPerturb).
func (b *Build) RecordTestEnv(ctx context.Context, pkg, name, path string, timeout time.Duration, env []string) Test {
	os.Remove(path)
	fromTest := b.TestEnv(pkg, name)
	env = b.recordEnv(env)
	r := RunTest(ctx, b.Binaries[pkg], b.Dirs[pkg], name, append(append([]string{"PECANVET_TRACE=" + path}, fromTest...), env...), timeout)
	if _, err := os.Stat(path); err != nil && len(fromTest) > 0 && !r.TimedOut && ctx.Err() == nil {
		// The test never started its trace (rt.TestStart): its file was
		// not instrumented, or its *testing.T has no name. Record it,
		// and replay it, from process start.
		b.setFromInit(pkg, name)
		r = RunTest(ctx, b.Binaries[pkg], b.Dirs[pkg], name, append([]string{"PECANVET_TRACE=" + path}, env...), timeout)
	}
	t := Test{Package: pkg, Name: name, Trace: path, Wall: r.Wall, Passed: r.Passed, TimedOut: r.TimedOut, Output: r.Output,
		Skipped: r.Passed && strings.Contains(r.Output, "--- SKIP: "+name+" (")}
	events, goroutines, active, shared, truncated, err := traceStatsActive(path)
	switch {
	case err != nil && os.IsNotExist(err):
		t.Truncated = "no trace written"
	case err != nil:
		t.Truncated = err.Error()
	default:
		t.Events, t.Goroutines, t.Active, t.Shared, t.Truncated = events, goroutines, active, shared, truncated
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

// TempEnv makes a private TMPDIR for one test process, and returns its
// environment entry and the function that removes it. A test process that
// is killed at a bound, or whose replay ends it at a verdict, runs none of
// its t.TempDir cleanups; what it leaves behind goes with this directory
// instead of piling up in the user's temp dir. On error the entry is empty
// and the process uses the usual temp dir.
func TempEnv() (string, func()) {
	dir, err := os.MkdirTemp("", "pecanvet-tmp-")
	if err != nil {
		return "", func() {}
	}
	return "TMPDIR=" + dir, func() { os.RemoveAll(dir) }
}
