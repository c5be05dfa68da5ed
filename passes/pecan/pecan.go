// Package pecan defines the vet tool's analyzer: it reports the
// concurrency anomalies that a replayed schedule reproduced.
//
// It is the analyzer `go vet -vettool=pecanvet` runs; the schedules are
// of the package's tests.
//
// For a package with concurrency (goroutines, channels, sync or
// sync/atomic: symbolic.Result.HasConcurrency; or a standard-library API
// that runs its code on another goroutine, such as time.AfterFunc, in the
// package or its tests: hiddenGoroutines) the analyzer runs the dynamic
// loop (package check): record the package's tests instrumented, predict
// the anomalies another schedule would show, replay each schedule. It
// reports only what replay reproduced, worded by package report, with the
// replayed steps as related information (one position per step, so
// editors can walk them).
//
// Unlike passes/symbolic and passes/candidates, which are pure and fast
// enough for gopls, it builds and runs test binaries: it is for the vet
// tool and for CI, not for editors. A package without concurrency does no
// dynamic work (the fast path). When a bound is hit — a timeout, the
// budget — or a test fails while recorded, a one-line note on standard
// error says so. When the dynamic check of a package cannot run at all
// (its tests do not build), the analyzer fails with the cause and what to
// run instead, so that go vet exits non-zero: a skip never passes for "no
// bugs".
//
// The tests of an external test package (package p_test) run with
// package p's, in one unit: under go vet (VetUnits), p_test's when it
// imports p, whose cache key covers both packages' files; otherwise p's.
//
// # Flags
//
//	-patterns    the anomaly patterns: race, av, asv, chan, deadlock, leak, sync, order, all, pattern files or text
//	-budget      the dynamic work of one package, in work: what takes that long on an idle machine (docs/flags.md)
//	-maxreplays  replays per test at most
//	-replay      false: report the static candidates, marked unconfirmed, and run nothing
//	-v           also report the interleavings without effect
//	-stats       append what was checked to a file, one JSON line per package
//
// # Static mode
//
// With -replay=false the analyzer reports passes/candidates' candidates
// instead. Those need passes/symbolic's facts, hence SSA of every
// dependency, which the dynamic loop does without; so the analyzer comes
// in two builds with the same name and flags, Analyzer and
// ForReplay(false), and a driver registers the one -replay asks for.
package pecan

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/packages"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/dynamic/instrument"
	"github.com/pecanvet/pecanvet/dynamic/testbin"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/internal/note"
	"github.com/pecanvet/pecanvet/passes/candidates"
	"github.com/pecanvet/pecanvet/passes/symbolic"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/report"
	"github.com/pecanvet/pecanvet/static/driver"
)

// Analyzer reports the reproduced concurrency anomalies of a package. It
// needs no SSA and exports no facts: a package without concurrency costs
// one walk of its syntax (the fast path), and its dependencies nothing.
// With -replay=false it does nothing: drivers register ForReplay(false).
var Analyzer = newAnalyzer(run, inspect.Analyzer)

// staticAnalyzer is the build of Analyzer for -replay=false: it reports
// the static candidates, marked unconfirmed, and runs nothing.
var staticAnalyzer = newAnalyzer(runStatic, symbolic.Analyzer, candidates.Analyzer)

// ForReplay returns the analyzer that implements -replay=replay: Analyzer,
// or for false the build that reports the static candidates. Both are named
// "pecan" and share their flags (a flag set through one is set for both),
// so that users see one analyzer whichever runs; a driver chooses before
// it parses flags, since the choice decides which analyzers run on the
// dependencies.
func ForReplay(replay bool) *analysis.Analyzer {
	if replay {
		return Analyzer
	}
	return staticAnalyzer
}

func newAnalyzer(run func(*analysis.Pass) (any, error), requires ...*analysis.Analyzer) *analysis.Analyzer {
	a := &analysis.Analyzer{
		Name:       "pecan",
		Doc:        "report concurrency anomalies (data races, atomicity and atomic-set-serializability violations) that another schedule of the package's tests exhibits, each proved by replaying that schedule",
		URL:        "https://github.com/pecanvet/pecanvet",
		Requires:   requires,
		Run:        run,
		ResultType: reflect.TypeOf((*Result)(nil)),
	}
	a.Flags.StringVar(&patternsFlag, "patterns", patternsFlag, "anomaly patterns: built-in sets (race, av, asv, chan, deadlock, leak, sync, order, all), pattern files or inline pattern text")
	a.Flags.DurationVar(&budget, "budget", budget, "budget for the dynamic work of one package, counted in work units: the work that takes this long on an idle 2-core machine, whatever the load (a wall-clock safety net stops at 10x it, at least 30m)")
	a.Flags.BoolVar(&doReplay, "replay", doReplay, "confirm by recording and replaying; false reports the static candidates, marked unconfirmed")
	a.Flags.IntVar(&maxReplays, "maxreplays", maxReplays, "replays per test at most")
	a.Flags.StringVar(&statsFile, "stats", statsFile, "append one JSON line per package to this file: tests found and checked, notes, why it was skipped (for evaluations)")
	a.Flags.BoolVar(&short, "short", short, "run the tests with -test.short, as go test -short: for suites whose long tests skip themselves under testing.Short()")
	a.Flags.BoolVar(&verbose, "v", verbose, "also report interleavings without effect (reproduced, but no effect and no dependence) and the findings of a bug already reported")
	return a
}

// Result lists what the analyzer did, for tests and drivers.
type Result struct {
	Dynamic bool          // the dynamic loop ran
	Notes   []string      // skipped work and bounds hit
	Skipped string        // why the dynamic loop did not run or failed, if so
	Report  *check.Report // the dynamic loop's report, if it ran
	// Reported holds the finding each diagnostic reports, in the order
	// of the diagnostics (none for the static candidates).
	Reported []check.Finding
}

var (
	patternsFlag = "all"
	budget       = 5 * time.Minute
	doReplay     = true
	maxReplays   = 100
	short        bool
	verbose      = false
)

// runStatic reports the static candidates of a package with concurrency.
func runStatic(pass *analysis.Pass) (any, error) {
	defer writeStats(pass, &Result{Skipped: "static candidates only (-pecan.replay=false)"})
	sym := pass.ResultOf[symbolic.Analyzer].(*symbolic.Result)
	if sym.HasConcurrency && !strings.HasSuffix(pass.Pkg.Path(), "_test") {
		pats, err := pattern.Resolve(patternsFlag)
		if err != nil {
			return nil, err
		}
		// passes/candidates matches its own -patterns (all by default);
		// report those this analyzer's -patterns asks for.
		want := make(map[string]bool, len(pats))
		for _, p := range pats {
			want[p.ID()] = true
		}
		var cands candidates.Result
		for _, c := range *pass.ResultOf[candidates.Analyzer].(*candidates.Result) {
			if want[c.Kind+"/"+c.Pattern] {
				cands = append(cands, c)
			}
		}
		reportCandidates(pass, cands)
	}
	return &Result{}, nil
}

// hasConcurrency reports what symbolic.Result.HasConcurrency does, from the
// syntax alone: a go statement, a channel type or operation, a Go(func)
// method call (WaitGroup.Go, errgroup), or an import of sync or sync/atomic.
func hasConcurrency(pass *analysis.Pass) bool {
	for _, imp := range pass.Pkg.Imports() {
		if p := imp.Path(); p == "sync" || p == "sync/atomic" {
			return true
		}
	}
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	found := false
	ins.Preorder([]ast.Node{(*ast.GoStmt)(nil), (*ast.SendStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.ChanType)(nil), (*ast.SelectStmt)(nil), (*ast.CallExpr)(nil)}, func(n ast.Node) {
		if found {
			return
		}
		switch n := n.(type) {
		case *ast.UnaryExpr:
			found = n.Op == token.ARROW
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Go" && len(n.Args) == 1 {
				_, isFunc := pass.TypesInfo.TypeOf(n.Args[0]).Underlying().(*types.Signature)
				found = isFunc
			}
		default:
			found = true
		}
	})
	return found
}

// SkipDynamic, when set, turns the dynamic loop off (the vet tool sets it
// for units analyzed only for facts, and for external test packages).
var SkipDynamic bool

func run(pass *analysis.Pass) (any, error) {
	res := &Result{}
	defer writeStats(pass, res)
	if SkipDynamic || len(pass.Files) == 0 || !doReplay {
		res.Skipped = "no dynamic check (no files, or -pecan.replay=false)"
		return res, nil
	}
	dir := packageDir(pass.Fset, pass.Files)
	external := strings.HasSuffix(pass.Pkg.Path(), "_test")
	switch {
	case external && hasInternalUnit(dir) && !(VetUnits && importsBase(pass.Pkg)):
		res.Skipped = "external test package: its tests run with " + strings.TrimSuffix(pass.Pkg.Path(), "_test")
		return res, nil
	case !external && VetUnits && externalTestsFollow(pass, dir):
		res.Skipped = "its tests run in the unit of its external test package, " + pass.Pkg.Path() + "_test"
		return res, nil
	}
	if !hasConcurrency(pass) && !usesHiddenGoroutines(pass) && !testsConcurrent(pass, dir) && !moduleDepsConcurrent(pass, dir) {
		res.Skipped = "no concurrency in the package or its tests (fast path)"
		return res, nil // the fast path
	}
	if nothingToRun(pass, dir) {
		// What the dynamic loop would say, without its load and
		// instrumentation (0.7-3.4 s of each of nxadm/tail's examples
		// and command, issue 30): go test -c has nothing to build, and
		// no driver is generated.
		res.Dynamic = true
		res.Report = &check.Report{Notes: []note.Note{note.New(note.NoTests, pass.Pkg.Path(), "", "no test files")}}
		res.Notes = note.Strings(res.Report.Notes)
		printNote(pass, res.Report.Notes[0])
		return res, nil
	}
	pats, err := pattern.Resolve(patternsFlag)
	if err != nil {
		return nil, err
	}
	res.Dynamic = true
	prog, closeProg := progressLog(pass.Pkg.Path())
	ctx := Context
	if ctx == nil {
		ctx = context.Background()
	}
	rep, err := check.RunOnce(ctx, check.Options{
		Dir: dir, Patterns: checkPatterns, Anomalies: pats, Budget: budget, MaxReplays: maxReplays, Drivers: true,
		Progress: prog, Short: short,
	})
	closeProg()
	if ctx.Err() != nil {
		// A part of the answer that depends on when the interrupt came:
		// report none of it.
		return nil, fmt.Errorf("%v: the check did not finish, so nothing is reported", context.Cause(ctx))
	}
	res.Report = rep
	if rep != nil {
		res.Notes = append(res.Notes, note.Strings(rep.Notes)...)
	}
	if err != nil {
		res.Skipped = "dynamic check skipped: " + strings.SplitN(err.Error(), "\n", 2)[0]
		// A skip must not pass for "no bugs": the error makes go vet
		// print it and exit non-zero.
		return res, skipError(pass.Pkg.Path(), dir, err)
	}
	for _, n := range rep.Notes {
		if shownNotes[n.Kind] {
			printNote(pass, n)
		}
	}
	if verbose {
		res.Reported = diagnose(pass, rep.Reproduced())
	} else {
		res.Reported = diagnose(pass, rep.Reported())
	}
	return res, nil
}

// checkPatterns are the patterns the analyzer's check of a package
// directory runs with.
var checkPatterns = []string{"."}

// Forget makes the analyzer's next run on the package in dir, in this
// process, record and replay it again: the dynamic check of a directory
// otherwise runs once per process (check.RunOnce), and a later run, of
// the package with or without its tests, gets the first one's result. For
// a harness that runs a subject again to tell a flake from a failure.
func Forget(dir string) {
	check.Forget(dir, checkPatterns)
}

// VetUnits, set by the vet tool, says that go vet runs the analyzer once
// per unit: package p (with its internal tests, "p [p.test]") and, when
// the directory has external tests, package p_test ("p_test [p.test]")
// after it. go vet caches a unit's output on its own files and its
// imports' compiled packages: p's unit is not run again when only an
// external test file changes, and would replay its old output (a race
// that file's new test shows never reported; one fixed there still
// reported). So when p_test imports p, whose compiled package, internal
// tests included, is part of p_test's key, p_test's unit runs the
// package's tests, and p's does nothing dynamic. An external test
// package that does not import p (a command's tests, which run the built
// command) leaves them to p's unit: its key would miss p's own files.
var VetUnits bool

// Context is the dynamic check's context: pecanvet's go vet mode sets one
// that an interrupt cancels (its test processes are then killed, its
// temporary directories removed); nil means context.Background.
var Context context.Context

// importsBase reports whether an external test package imports the
// package it tests.
func importsBase(pkg *types.Package) bool {
	base := strings.TrimSuffix(pkg.Path(), "_test")
	for _, imp := range pkg.Imports() {
		if imp.Path() == base {
			return true
		}
	}
	return false
}

// externalTestsFollow reports whether go vet runs, after the unit of
// package p in dir, the unit of an external test package that imports p
// and so runs the tests (VetUnits): dir holds a _test.go file that is
// neither the unit's nor ignored by the build (pass.IgnoredFiles: go
// vet's build constraints), in package p_test, importing p. It parses the
// package clause and imports only; a file that does not parse is left to
// p_test's unit, which reports the syntax error.
func externalTestsFollow(pass *analysis.Pass, dir string) bool {
	skip := make(map[string]bool)
	for _, f := range pass.Files {
		skip[pass.Fset.File(f.Pos()).Name()] = true
	}
	for _, name := range pass.IgnoredFiles {
		skip[name] = true
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	fset := token.NewFileSet()
	for _, name := range names {
		if skip[name] {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly|parser.SkipObjectResolution)
		if f == nil || f.Name.Name != pass.Pkg.Name()+"_test" {
			continue
		}
		if err != nil {
			return true
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == pass.Pkg.Path() {
				return true
			}
		}
	}
	return false
}

// packageDir is the directory of the package's source files. For a cgo
// package go vet hands over cgo's output, files in its build directory
// ($WORK/b213/main.cgo1.go, _cgo_gotypes.go), not the sources: each
// processed file names its source in a //line directive before its
// package clause, which the position of the package name follows;
// cgo's own _cgo_* files have none.
func packageDir(fset *token.FileSet, files []*ast.File) string {
	for _, f := range files {
		if name := fset.Position(f.Name.Pos()).Filename; !strings.HasPrefix(filepath.Base(name), "_cgo_") {
			return filepath.Dir(name)
		}
	}
	return filepath.Dir(fset.File(files[0].Pos()).Name())
}

// testsConcurrent reports whether test files in dir that the unit does not
// hold use goroutines, channels or sync: the package's concurrency may live
// in its tests, which drive it from goroutines — in the external tests
// (p_test, a unit of their own), or in all of them for a driver that
// analyzes the package without its tests. An external test package's
// unit, which runs the package's tests under go vet (VetUnits), looks at
// the package's own files too.
func testsConcurrent(pass *analysis.Pass, dir string) bool {
	seen := make(map[string]bool)
	for _, f := range pass.Files {
		seen[pass.Fset.File(f.Pos()).Name()] = true // hasConcurrency saw it
	}
	glob := "*_test.go"
	if strings.HasSuffix(pass.Pkg.Path(), "_test") {
		glob = "*.go"
	}
	names, _ := filepath.Glob(filepath.Join(dir, glob))
	fset := token.NewFileSet()
	for _, name := range names {
		if seen[name] {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err == nil && fileConcurrent(f) {
			return true
		}
	}
	return false
}

// nothingToRun reports whether the dynamic loop would find nothing to run
// in the unit's package: its directory holds no test file at all (of any
// build tags), and static/driver generates no driver for it, as for a main
// package or one without a pair of methods to drive (driver.Drivable).
func nothingToRun(pass *analysis.Pass, dir string) bool {
	names, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil || len(names) > 0 {
		return false
	}
	return pass.Pkg.Name() == "main" || !driver.Drivable(&packages.Package{Types: pass.Pkg, Syntax: pass.Files, TypesInfo: pass.TypesInfo})
}

// hasInternalUnit reports whether go vet analyzes the package in dir itself
// (p or p [p.test]) besides its external tests: it does when the directory
// has Go files other than external tests. A directory of external tests
// only (an integration-test folder) is checked by its p_test unit.
func hasInternalUnit(dir string) bool {
	p, err := build.ImportDir(dir, 0)
	if err != nil {
		return true // let the package's own unit (or the go command) say what is wrong
	}
	return len(p.GoFiles)+len(p.CgoFiles)+len(p.TestGoFiles) > 0
}

// skipError says why the dynamic check of a package could not run, and
// what to run instead.
func skipError(pkg, dir string, err error) error {
	msg := err.Error()
	if lines := strings.Split(msg, "\n"); len(lines) > 12 {
		msg = strings.Join(lines[:12], "\n") + "\n…"
	}
	hint := fmt.Sprintf("`go test -c -o /dev/null` in %s shows whether the tests build without pecanvet; -pecan.replay=false checks statically, without building", dir)
	var load *instrument.LoadError
	var build *testbin.BuildError
	switch {
	case errors.As(err, &load) && load.Cgo(), errors.As(err, &build) && build.Cgo():
		hint = "cgo needs a C compiler: install one (or set CC), or run go vet with CGO_ENABLED=0 if the package builds without cgo"
	case errors.As(err, &load):
		hint = fmt.Sprintf("the package or its tests do not compile; `go vet %s` shows the errors", pkg)
	}
	return &skipped{msg: msg, hint: hint, err: err}
}

// skipped is skipError's error: the cause, cut to its first lines, and
// what to run instead.
type skipped struct {
	msg, hint string
	err       error
}

func (e *skipped) Error() string {
	return fmt.Sprintf("dynamic check skipped: %s\n(%s)", e.msg, e.hint)
}

func (e *skipped) Unwrap() error { return e.err }

// shownNotes are the kinds of note the analyzer prints: work left undone
// (a budget spent, -maxreplays, a timeout), packages without tests, tests
// that fail while recorded, and what the generated drivers did.
var shownNotes = map[note.Kind]bool{
	note.Budget: true, note.Replays: true, note.Timeout: true, note.NoTests: true, note.Fails: true, note.Driver: true,
}

// printNote tells the user what was skipped, on standard error (go vet
// shows it), without making it a diagnostic.
// A note names its package (and test); one that does not is the pass's.
func printNote(pass *analysis.Pass, n note.Note) {
	if n.Package == "" {
		n.Package = pass.Pkg.Path()
	}
	fmt.Fprintf(os.Stderr, "pecanvet: %s\n", n)
}

// diagnose turns reproduced findings into diagnostics: one per reporting
// position and kind (the strongest evidence first), the others mentioned.
// It returns the finding of each diagnostic, in order. A finding at a
// site in none of the unit's files nor of its directory's (files.pos) is
// not reported, but a data race in another package of the module: under
// go vet at its site (files.modulePos), which go vet prints as it prints
// the package's own, and the user's editor opens; under other drivers
// (gopls, golangci-lint, analysistest), which take positions only in the
// pass's files, at the go statement of this package that started the
// racing goroutine (files.anchor), the message naming the site.
func diagnose(pass *analysis.Pass, found []check.Finding) []check.Finding {
	files := fileIndex(pass)
	type key struct {
		pos  token.Pos
		kind string
	}
	groups := map[key][]check.Finding{}
	var order []key
	wide := map[key]bool{}        // reported in another package of the module
	anchored := map[string]bool{} // by key: reported at files.anchor
	for _, f := range found {
		k := key{pos: files.pos(report.Site(f)), kind: f.Anomaly.Pattern.Kind}
		if !k.pos.IsValid() && k.kind == "race" {
			// A race in a package of the module that this one imports,
			// which this package's tests ran: go test -race reports it
			// under this package's tests, and the imported package's own
			// tests may never run that code concurrently.
			if k.pos = files.modulePos(report.Site(f)); k.pos.IsValid() {
				wide[k] = true
			} else if !VetUnits {
				if k.pos = files.anchor(f); k.pos.IsValid() {
					anchored[f.Anomaly.Key] = true
				}
			}
		}
		if !k.pos.IsValid() {
			continue
		}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], f)
	}
	var reported []check.Finding
	for _, k := range order {
		fs := groups[k]
		sort.SliceStable(fs, func(i, j int) bool {
			// With -v, a finding reported by default (a bug's lead) is
			// the one shown at its position, not another of its bug or
			// an interleaving without effect there.
			if a, b := byDefault(fs[i]), byDefault(fs[j]); a != b {
				return a
			}
			if a, b := strength(fs[i]), strength(fs[j]); a != b {
				return a > b
			}
			return fs[i].Anomaly.Key < fs[j].Anomaly.Key
		})
		f := fs[0]
		d := analysis.Diagnostic{Pos: k.pos, Category: k.kind, Message: report.Message(f)}
		if anchored[f.Anomaly.Key] {
			d.Message += fmt.Sprintf(" (at %s, in another package of the module, run by a goroutine started here)", report.Site(f))
		}
		if len(fs) > 1 {
			d.Message += report.More(f.Anomaly.Pattern.Kind, len(fs)-1)
		}
		for _, st := range report.Steps(f) {
			p := files.pos(st.Site)
			if !p.IsValid() && wide[k] {
				p = files.modulePos(st.Site)
			}
			if p.IsValid() {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: p, Message: st.String()})
			}
		}
		pass.Report(d)
		reported = append(reported, f)
	}
	return reported
}

// byDefault reports whether f is reported without -v (check.Report.Reported).
func byDefault(f check.Finding) bool {
	return f.Reproduced() && !f.WithoutEffect() && f.Lead == ""
}

func strength(f check.Finding) int {
	switch {
	case f.Verdict.Panicked:
		return 2
	case !f.Verdict.Passed:
		return 1
	}
	return 0
}

// reportCandidates reports the static candidates, marked unconfirmed
// (-pecan.replay=false).
func reportCandidates(pass *analysis.Pass, cands candidates.Result) {
	for _, c := range cands {
		if len(c.Sites) == 0 {
			continue
		}
		var others []string
		for _, p := range c.Sites[1:] {
			pos := pass.Fset.Position(p)
			others = append(others, trace.Site{Path: pos.Filename, Line: pos.Line}.Short())
		}
		pass.Report(analysis.Diagnostic{Pos: c.Sites[0], Category: c.Kind,
			Message: fmt.Sprintf("possible %s (%s/%s) with %s; not confirmed (-pecan.replay=false)", pattern.KindName(c.Kind), c.Kind, c.Pattern, strings.Join(others, ", "))})
	}
}

// files maps sites (module-relative paths) to positions in the pass's
// files, or else, under go vet (VetUnits), in the other Go files of the
// package's directory: an external test package's unit, which runs the
// tests of the package it tests, reports what they find in that
// package's files, which go vet did not give it. Those files are added
// to the pass's file set, which then prints their positions as
// file:line:col like its own (text, -c context lines, -json).
type files struct {
	fset   *token.FileSet
	byPath []*ast.File
	names  []string
	dir    string                 // the package's directory, for the files added
	root   *string                // the module's root directory, once looked up (modulePos); "" none
	added  map[string]*token.File // by absolute path; nil: not readable
}

func fileIndex(pass *analysis.Pass) *files {
	fs := &files{fset: pass.Fset, added: map[string]*token.File{}}
	for _, f := range pass.Files {
		fs.byPath = append(fs.byPath, f)
		fs.names = append(fs.names, filepath.ToSlash(pass.Fset.File(f.Pos()).Name()))
	}
	if VetUnits && len(pass.Files) > 0 {
		// Other drivers give a unit all the package's files, or may
		// not print positions outside them.
		fs.dir = packageDir(pass.Fset, pass.Files)
	}
	return fs
}

// pos returns the position of site, or NoPos if it is in none of the files.
func (fs *files) pos(site trace.Site) token.Pos {
	if !site.IsValid() {
		return token.NoPos
	}
	for i, name := range fs.names {
		if name == site.Path || strings.HasSuffix(name, "/"+site.Path) {
			return lineCol(fs.fset.File(fs.byPath[i].Pos()), site)
		}
	}
	if tf := fs.dirFile(site.Path); tf != nil {
		return lineCol(tf, site)
	}
	return token.NoPos
}

// dirFile returns the token.File of the Go file of the package's
// directory that path (module-relative) names, added to the file set on
// first use, or nil.
func (fs *files) dirFile(path string) *token.File {
	if fs.dir == "" || !strings.HasSuffix(path, ".go") {
		return nil
	}
	name := filepath.Join(fs.dir, filepath.Base(filepath.FromSlash(path)))
	if slash := filepath.ToSlash(name); slash != path && !strings.HasSuffix(slash, "/"+path) {
		return nil // a file of another directory
	}
	tf, ok := fs.added[name]
	if !ok {
		if src, err := os.ReadFile(name); err == nil {
			tf = fs.fset.AddFile(name, -1, len(src))
			tf.SetLinesForContent(src)
		}
		fs.added[name] = tf
	}
	return tf
}

// modulePos returns, under go vet (VetUnits), the position of site in a
// Go file of another directory of the package's module (site's path is
// module-relative: not another module's "mod@version/…"), the file added
// to the file set as dirFile adds one; NoPos otherwise. Other drivers may
// not print positions outside the pass's files.
func (fs *files) modulePos(site trace.Site) token.Pos {
	if fs.dir == "" || !site.IsValid() || !strings.HasSuffix(site.Path, ".go") || strings.Contains(site.Path, "@") {
		return token.NoPos
	}
	if fs.root == nil {
		root := ""
		for d := fs.dir; ; {
			if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
				root = d
				break
			}
			up := filepath.Dir(d)
			if up == d {
				break
			}
			d = up
		}
		fs.root = &root
	}
	if *fs.root == "" {
		return token.NoPos
	}
	rel := filepath.FromSlash(site.Path)
	if filepath.IsAbs(rel) || !filepath.IsLocal(rel) {
		return token.NoPos
	}
	name := filepath.Join(*fs.root, rel)
	tf, ok := fs.added[name]
	if !ok {
		if src, err := os.ReadFile(name); err == nil {
			tf = fs.fset.AddFile(name, -1, len(src))
			tf.SetLinesForContent(src)
		}
		fs.added[name] = tf
	}
	if tf == nil {
		return token.NoPos
	}
	return lineCol(tf, site)
}

// anchor returns, for a finding whose site is in another package of the
// module (a module-relative path: not another module's "mod@version/…"),
// the position in the pass's files of the go statement that started the
// goroutine of the event reported (report.Site), or of the nearest
// ancestor of it started from them; NoPos if none is. Trace events carry
// no call stack: the go statement is the frame of this package that the
// racing goroutine surely ran through (the test's own goroutine's is the
// test function).
func (fs *files) anchor(f check.Finding) token.Pos {
	site := report.Site(f)
	if !site.IsValid() || strings.Contains(site.Path, "@") || f.Schedule == nil {
		return token.NoPos
	}
	for _, name := range fs.names {
		if dir := path.Dir(site.Path); strings.HasSuffix(path.Dir(name), "/"+dir) || path.Dir(name) == dir {
			// This package's directory (a file the driver did not give
			// this unit: the external test package's): its own unit
			// reports it.
			return token.NoPos
		}
	}
	steps := f.Schedule.Steps
	for k, i := range f.Schedule.Anomaly {
		if s, err := trace.ParseSite(f.Anomaly.Sites[min(k, len(f.Anomaly.Sites)-1)]); err != nil || s != site || int(i) >= len(steps) {
			continue
		}
		g := steps[i].G
		for j := int(i) - 1; j >= 0; j-- {
			st := steps[j]
			if st.Op != trace.Fork || st.Obj != g {
				continue
			}
			if s, err := trace.ParseSite(st.Site); err == nil {
				if p := fs.pos(s); p.IsValid() {
					return p
				}
			}
			g = st.G // started elsewhere: look for its parent's start
		}
		break
	}
	return token.NoPos
}

// lineCol returns the position of site's line and column in tf, NoPos
// for a line past its end, the line's start for a column past it.
func lineCol(tf *token.File, site trace.Site) token.Pos {
	if site.Line > tf.LineCount() {
		return token.NoPos
	}
	p := tf.LineStart(site.Line) + token.Pos(max(site.Col, 1)-1)
	if int(p) > tf.Base()+tf.Size() {
		return tf.LineStart(site.Line)
	}
	return p
}
