// Package testbin builds and runs the test binaries of an instrumented
// build.
//
// New compiles one instrumented test binary per package with tests (go
// test -c through the instrumenter's overlay, so the user's files are
// never touched); a plain binary and a -race binary are built on demand.
// RunTest runs one test of a binary in a process of its own, bounded in
// time, and is what recording (dynamic/record) and replay (replay) both
// run tests with.
package testbin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/instrument"
	"github.com/pecanvet/pecanvet/internal/note"
	"github.com/pecanvet/pecanvet/internal/tmpdir"
)

// Options configure a build.
type Options struct {
	Dir        string // directory inside the user's module (the go command's working directory)
	BuildFlags []string
	Plain      bool      // also build each package's tests uninstrumented
	Progress   io.Writer // progress lines, if not nil
	// Extra are the generated files (instrument.Options.Extra: test
	// drivers) as generated, which the plain and -race builds take too,
	// uninstrumented: without them a driver is no test of those
	// binaries, and a package whose only tests are drivers has no test
	// binary at all (go test -c writes none: "no test files").
	Extra map[string][]byte
	// Short runs the tests with -test.short (Flags), as go test -short.
	Short bool
}

func (o *Options) progress(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, format+"\n", args...)
	}
}

// Build is an instrumented build of some packages: test binaries ready to
// run under the recorder or a replay schedule.
type Build struct {
	Inst     *instrument.Result
	Binaries map[string]string // import path → instrumented test binary
	Plain    map[string]string // import path → uninstrumented test binary (if built)
	Dirs     map[string]string // import path → package directory
	Notes    []note.Note       // packages without tests
	tmp      string
	opt      Options // what the build was made with (PlainBinary)
	// extraOverlay is the -overlay of the plain and -race builds: the
	// generated files that the instrumented build took, uninstrumented
	// (Options.Extra); "" if none.
	extraOverlay string

	mu       sync.Mutex
	fromInit map[string]bool           // "pkg test" → recorded from process start (TestEnv)
	quick    map[string][]string       // import path → generated drivers replayed with a short wait (QuickDriver)
	listed   map[string]map[string]int // import path → test → its place in the binary's -test.list

	raceMu sync.Mutex
	race   map[string]*raceBuild // import path → -race binary, built or being built
	plain  map[string]*raceBuild // import path → PlainBinary's binary, built or being built (under raceMu)
}

// New builds one test binary per package of inst that has tests. The
// build owns inst: Close removes it, as New does when it fails. A package
// that does not compile yields the compiler's own messages as the error.
func New(ctx context.Context, inst *instrument.Result, opt Options) (*Build, error) {
	b := &Build{Inst: inst, Binaries: map[string]string{}, Plain: map[string]string{}, Dirs: map[string]string{}, opt: opt}
	var err error
	b.tmp, err = tmpdir.Make("pecanvet-bin-")
	if err != nil {
		b.Close()
		return nil, err
	}
	if b.extraOverlay, err = writeExtra(b.tmp, inst, opt.Extra); err != nil {
		b.Close()
		return nil, err
	}
	for i, p := range inst.Packages {
		if !p.Tests {
			b.Notes = append(b.Notes, note.New(note.NoTests, p.ImportPath, "", "no test files"))
			continue
		}
		b.Dirs[p.ImportPath] = p.Dir
		var flags []string
		if opt.Short {
			flags = []string{"-test.short"}
		}
		setFlags(p.Dir, flags)
		bin := filepath.Join(b.tmp, fmt.Sprintf("p%d.test", i))
		args := append([]string{"-vet=off", "-overlay=" + inst.Overlay}, leanFlags(opt.BuildFlags)...)
		start := time.Now()
		if err := testC(ctx, opt.Dir, "instrumented", p.ImportPath, args, bin); err != nil {
			b.Close()
			return nil, &BuildError{Package: p.ImportPath, Mode: "instrumented", Err: err}
		}
		opt.progress("testbin: built %s's tests instrumented in %v", p.ImportPath, time.Since(start).Round(time.Millisecond))
		b.Binaries[p.ImportPath] = bin
		if opt.Plain {
			plain := filepath.Join(b.tmp, fmt.Sprintf("p%d.plain.test", i))
			args := b.uninstrumentedArgs("-vet=off")
			if err := testC(ctx, opt.Dir, "plain", p.ImportPath, args, plain); err != nil {
				b.Close()
				return nil, &BuildError{Package: p.ImportPath, Err: err}
			}
			b.Plain[p.ImportPath] = plain
		}
	}
	return b, nil
}

// Close removes the build's temporary files.
func (b *Build) Close() error {
	var errs []error
	// A -race or plain build started in the background writes into b.tmp.
	b.raceMu.Lock()
	for _, rb := range b.race {
		<-rb.done
	}
	for _, pb := range b.plain {
		<-pb.done
	}
	b.raceMu.Unlock()
	if b.Inst != nil {
		errs = append(errs, b.Inst.Cleanup())
	}
	if b.tmp != "" {
		errs = append(errs, tmpdir.Remove(b.tmp))
	}
	return errors.Join(errs...)
}

// PlainBinary returns the package's uninstrumented test binary, building it
// on first use (or waiting for PrebuildPlain's build): to tell a test that
// fails in a normal run from one that fails only instrumented.
func (b *Build) PlainBinary(ctx context.Context, pkg string) (string, error) {
	b.raceMu.Lock()
	bin := b.Plain[pkg]
	b.raceMu.Unlock()
	if bin != "" {
		return bin, nil
	}
	pb := b.plainBuild(ctx, pkg)
	select {
	case <-pb.done:
		return pb.bin, pb.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// PlainStarted reports whether PlainBinary's binary is built or being
// built: asking for it costs no build of its own.
func (b *Build) PlainStarted(pkg string) bool {
	b.raceMu.Lock()
	defer b.raceMu.Unlock()
	return b.Plain[pkg] != "" || b.plain[pkg] != nil
}

// PrebuildPlain starts building PlainBinary's binary in the background, if
// it is not built or being built: the check asks for it at the first test
// that failed while recorded, and building it then held up the whole
// package's loop (its compile and link, a second on redigo's redis).
func (b *Build) PrebuildPlain(ctx context.Context, pkg string) { b.plainBuild(ctx, pkg) }

func (b *Build) plainBuild(ctx context.Context, pkg string) *raceBuild {
	b.raceMu.Lock()
	defer b.raceMu.Unlock()
	if pb := b.plain[pkg]; pb != nil {
		return pb
	}
	if b.plain == nil {
		b.plain = map[string]*raceBuild{}
	}
	pb := &raceBuild{done: make(chan struct{})}
	b.plain[pkg] = pb
	if bin := b.Plain[pkg]; bin != "" { // built by New (Options.Plain)
		pb.bin = bin
		close(pb.done)
		return pb
	}
	go func() {
		defer close(pb.done)
		if b.Binaries[pkg] == "" {
			pb.err = fmt.Errorf("%s: no test binary", pkg)
			return
		}
		bin := b.Binaries[pkg] + ".plain"
		args := b.uninstrumentedArgs("-vet=off")
		if err := testC(ctx, b.opt.Dir, "plain", pkg, args, bin); err != nil {
			pb.err = &BuildError{Package: pkg, Err: err}
			return
		}
		pb.bin = bin
	}()
	return pb
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
		args := b.uninstrumentedArgs("-race", "-vet=off")
		if err := testC(ctx, b.opt.Dir, "race", pkg, args, bin); err != nil {
			rb.err = &BuildError{Package: pkg, Mode: "with -race", Err: err}
			return
		}
		rb.bin = bin
	}()
	return rb
}

// uninstrumentedArgs are the go test -c arguments of a build without
// instrumentation (plain, -race): flags, the generated files' overlay,
// the build flags.
func (b *Build) uninstrumentedArgs(flags ...string) []string {
	if b.extraOverlay != "" {
		flags = append(flags, "-overlay="+b.extraOverlay)
	}
	return append(flags, linkFlags(b.opt.BuildFlags)...)
}

// writeExtra writes the overlay of the generated files (extra) that the
// instrumented build inst took (one it left out, with a note, would
// break the build) into dir, and returns its path, or "" if there are
// none.
func writeExtra(dir string, inst *instrument.Result, extra map[string][]byte) (string, error) {
	took := map[string]bool{}
	for _, p := range inst.Packages {
		for _, f := range p.Files {
			took[f] = true
		}
	}
	paths := make([]string, 0, len(extra))
	for path := range extra {
		if took[path] {
			paths = append(paths, path)
		}
	}
	if len(paths) == 0 {
		return "", nil
	}
	sort.Strings(paths)
	if err := os.MkdirAll(filepath.Join(dir, "extra"), 0o755); err != nil {
		return "", err
	}
	replace := map[string]string{}
	for i, path := range paths {
		f := filepath.Join(dir, "extra", fmt.Sprintf("%d_%s", i, filepath.Base(path)))
		if err := os.WriteFile(f, extra[path], 0o644); err != nil {
			return "", err
		}
		replace[path] = f
	}
	js, err := json.Marshal(struct{ Replace map[string]string }{replace})
	if err != nil {
		return "", err
	}
	name := filepath.Join(dir, "extra.json")
	return name, os.WriteFile(name, js, 0o644)
}

// linkFlags returns the build flags, with -ldflags=-s -w unless they set
// -ldflags: linking without the symbol table and DWARF is a third faster
// (0.7 to 0.45 s of CPU for Go's race testdata), and nothing reads them —
// stack traces, race reports and the recorder's sites need only the
// runtime's line tables, which stay.
func linkFlags(flags []string) []string {
	if hasFlag(flags, "ldflags") {
		return flags
	}
	return append([]string{"-ldflags=-s -w"}, flags...)
}

// leanFlags are linkFlags for the instrumented build, also with
// -gcflags=-dwarf=false unless the build flags set -gcflags: the DWARF
// the link drops need not be compiled either (pond's go test -c: 1.5
// against 1.7 s of CPU, six runs each way at load 35-40). Without a
// pattern it applies to the packages the command names (the package
// under test, its test variants, the test main), rewritten through the
// overlay, so compiled for this build alone anyway. The plain and -race
// builds keep the compiler's defaults: their package compiles can be
// go vet's or go test -race's, already in the build cache.
func leanFlags(flags []string) []string {
	if hasFlag(flags, "gcflags") {
		return linkFlags(flags)
	}
	return linkFlags(append([]string{"-gcflags=-dwarf=false"}, flags...))
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

// A BuildError is a test binary that did not build.
type BuildError struct {
	Package string
	Mode    string // "instrumented", "with -race", or "" (uninstrumented)
	Err     error  // the go command's output (the compiler's messages), or why it did not run
}

func (e *BuildError) Error() string {
	if e.Mode == "" {
		return fmt.Sprintf("building %s: %v", e.Package, e.Err)
	}
	return fmt.Sprintf("building %s %s: %v", e.Package, e.Mode, e.Err)
}

func (e *BuildError) Unwrap() error { return e.Err }

// Cgo reports whether the build failed in cgo: no C compiler, or one that
// failed.
func (e *BuildError) Cgo() bool {
	msg := e.Err.Error()
	return strings.Contains(msg, "C compiler") || strings.Contains(msg, "cgo")
}

// goCmd runs the go command. On failure the error is its output, wrapping
// how it failed.
func goCmd(ctx context.Context, dir string, args ...string) error {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(out.String()); msg != "" {
			return &outputError{msg, err}
		}
		return err
	}
	return nil
}

// outputError is a command's output, wrapping how it failed.
type outputError struct {
	output string
	err    error
}

func (e *outputError) Error() string { return e.output }
func (e *outputError) Unwrap() error { return e.err }

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
			return nil, fmt.Errorf("-run: %w", err)
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
	// A TestMain runs here too (pogreb's makes its test.db): in a
	// directory of its own, as every test process.
	wd, tmp, rmTmp := Private(b.Dirs[pkg])
	defer rmTmp()
	cmd.Dir = wd
	cmd.Env = append(os.Environ(), tmp)
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: listing tests: %w", pkg, err)
	}
	// Each name once: a TestMain that calls m.Run more than once
	// (pogreb's, once per file system) lists its tests as often. Listed
	// twice, a test was checked twice and given twice to one batch, whose
	// result channel holds one result: go vet hung for good ("all
	// goroutines are asleep").
	var names []string
	seen := map[string]bool{}
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" && !seen[l] {
			seen[l] = true
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

// InRunOrder returns tests in the order the package's test binary runs
// them (names it does not list last, as given): the caller may have
// ordered them otherwise (the tests reaching a static candidate first).
func (b *Build) InRunOrder(ctx context.Context, pkg string, tests []string) []string {
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

// TestEnv is the environment that makes a recording or replay of test
// start with the test (rt.EnvFromTest): every Test function gets it,
// except those found to have no TestStart (SetFromInit). Benchmarks,
// examples and fuzz targets are recorded from process start.
func (b *Build) TestEnv(pkg, test string) []string {
	if !b.fromTest(pkg, test) {
		return nil
	}
	return []string{"PECANVET_FROM_TEST=" + test}
}

func (b *Build) fromTest(pkg, test string) bool {
	if !strings.HasPrefix(test, "Test") {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return !b.fromInit[pkg+" "+test]
}

// EnvQuickDrivers lists, comma-separated, the generated drivers
// (static/driver) of a test process that bound their calls by a second
// instead of five: pecanvet's replays of a driver whose calls did not
// return when it was recorded (it skipped itself). After a replay's
// schedule the program runs on the real clock, so each such replay sat
// out the driver's whole bound for a skip already known (x/sync's
// errgroup: 5 s a replay, most of its check).
const EnvQuickDrivers = "PECANVET_QUICK_DRIVERS"

// QuickDriver notes that the generated driver test of pkg did not return
// when recorded: the processes that replay pkg's tests (ReplayEnv) bound
// its calls by a second.
func (b *Build) QuickDriver(pkg, test string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.quick == nil {
		b.quick = map[string][]string{}
	}
	for _, t := range b.quick[pkg] {
		if t == test {
			return
		}
	}
	b.quick[pkg] = append(b.quick[pkg], test)
}

// ReplayEnv is the environment a process replaying pkg's tests adds
// (EnvQuickDrivers), or nil.
func (b *Build) ReplayEnv(pkg string) []string {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.quick[pkg]) == 0 {
		return nil
	}
	return []string{EnvQuickDrivers + "=" + strings.Join(b.quick[pkg], ",")}
}

// Quick reports whether the generated driver test of pkg did not return
// when recorded (QuickDriver).
func (b *Build) Quick(pkg, test string) bool {
	if b == nil {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Contains(b.quick[pkg], test)
}

// SetFromInit notes that test has no TestStart (its file was not
// instrumented, or its *testing.T has no name): it is recorded and
// replayed from process start, TestEnv giving it nothing.
func (b *Build) SetFromInit(pkg, test string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.fromInit == nil {
		b.fromInit = map[string]bool{}
	}
	b.fromInit[pkg+" "+test] = true
}
