// Package pecan is pecanvet's reporting analyzer: the one `go vet
// -vettool=pecanvet` runs. For a package with concurrency (goroutines,
// channels, sync or sync/atomic: symbolic.Result.HasConcurrency; or a
// standard-library API that runs its code on another goroutine, such as
// time.AfterFunc, in the package or its tests: hiddenGoroutines) it runs
// the dynamic loop — record the package's tests instrumented, predict the
// anomalies another schedule would show, replay each schedule — and
// reports, as diagnostics, only the anomalies replay reproduced, each with
// its bug hatching clip as related information (one position per step, so
// editors can walk it).
//
// Unlike passes/symbolic and passes/candidates, which are pure and fast
// enough for gopls, this analyzer builds and runs test binaries: it is for
// the vet tool and for CI, not for editors. A package without concurrency
// does no dynamic work (the fast path). When a bound is hit — a timeout,
// the budget — or a test fails while recorded (in a normal run too, or only
// under instrumentation), a one-line note on standard error says so. When
// the dynamic check of a package cannot run at all (its tests do not
// build), the analyzer fails with the cause and what to run instead, so
// that go vet exits non-zero: a skip never passes for "no bugs".
//
// Flags: -patterns, -budget (per package), -replay (false: report the
// static candidates, marked unconfirmed, instead of running anything —
// StaticAnalyzer does that), -maxreplays.
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
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/dynamic/instrument"
	"github.com/pecanvet/pecanvet/dynamic/testbin"
	"github.com/pecanvet/pecanvet/internal/note"
	"github.com/pecanvet/pecanvet/passes/candidates"
	"github.com/pecanvet/pecanvet/passes/symbolic"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/replay"
)

const doc = "report concurrency anomalies (data races, atomicity and atomic-set-serializability violations) that another schedule of the package's tests exhibits, each proved by replaying that schedule"

// Analyzer reports the reproduced concurrency anomalies of a package. It
// needs no SSA and exports no facts: a package without concurrency costs
// one walk of its syntax (the fast path), and its dependencies nothing.
var Analyzer = &analysis.Analyzer{
	Name:       "pecan",
	Doc:        doc,
	URL:        "https://github.com/pecanvet/pecanvet",
	Requires:   []*analysis.Analyzer{inspect.Analyzer},
	Run:        run,
	ResultType: reflect.TypeOf((*Result)(nil)),
}

// StaticAnalyzer is Analyzer for -replay=false: it reports the static
// candidates (passes/candidates), marked unconfirmed, and runs nothing.
// It has the same name and flags; a driver registers one or the other.
var StaticAnalyzer = &analysis.Analyzer{
	Name:       "pecan",
	Doc:        doc,
	URL:        "https://github.com/pecanvet/pecanvet",
	Requires:   []*analysis.Analyzer{symbolic.Analyzer, candidates.Analyzer},
	Run:        runStatic,
	ResultType: reflect.TypeOf((*Result)(nil)),
}

// Result lists what the analyzer did, for tests and drivers.
type Result struct {
	Dynamic bool          // the dynamic loop ran
	Notes   []string      // skipped work and bounds hit
	Skipped string        // why the dynamic loop did not run or failed, if so
	Report  *check.Report // the dynamic loop's report, if it ran
}

var (
	patternsFlag = "all"
	budget       = 5 * time.Minute
	doReplay     = true
	maxReplays   = 100
	verbose      = false
)

func init() {
	for _, a := range []*analysis.Analyzer{Analyzer, StaticAnalyzer} {
		a.Flags.StringVar(&patternsFlag, "patterns", patternsFlag, "anomaly patterns: built-in sets (race, av, asv, chan, all), pattern files or inline pattern text")
		a.Flags.DurationVar(&budget, "budget", budget, "time budget for the dynamic work of one package")
		a.Flags.BoolVar(&doReplay, "replay", doReplay, "confirm by recording and replaying; false reports the static candidates, marked unconfirmed")
		a.Flags.IntVar(&maxReplays, "maxreplays", maxReplays, "replays per test at most")
		a.Flags.StringVar(&statsFile, "stats", statsFile, "append one JSON line per package to this file: tests found and checked, notes, why it was skipped (for evaluations)")
		a.Flags.BoolVar(&verbose, "v", verbose, "also report interleavings without effect (violations across a unit's own unlock whose replay passes)")
	}
}

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
	dir := filepath.Dir(pass.Fset.File(pass.Files[0].Pos()).Name())
	if !hasConcurrency(pass) && !usesHiddenGoroutines(pass) && !testsConcurrent(pass, dir) && !moduleDepsConcurrent(pass, dir) {
		res.Skipped = "no concurrency in the package or its tests (fast path)"
		return res, nil // the fast path
	}
	if strings.HasSuffix(pass.Pkg.Path(), "_test") && hasInternalUnit(dir) {
		res.Skipped = "external test package: its tests run with " + strings.TrimSuffix(pass.Pkg.Path(), "_test")
		return res, nil // the package's own unit runs the tests
	}
	pats, err := pattern.Resolve(patternsFlag)
	if err != nil {
		return nil, err
	}
	res.Dynamic = true
	rep, err := check.RunOnce(context.Background(), check.Options{
		Dir: dir, Patterns: []string{"."}, Anomalies: pats, Budget: budget, MaxReplays: maxReplays, Drivers: true,
	})
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
			printNote(pass, n.String())
		}
	}
	if verbose {
		report(pass, rep.Reproduced())
	} else {
		report(pass, rep.Reported())
	}
	return res, nil
}

// testsConcurrent reports whether test files in dir that the unit does not
// hold use goroutines, channels or sync: the package's concurrency may live
// in its tests, which drive it from goroutines — in the external tests
// (p_test, a unit of their own), or in all of them for a driver that
// analyzes the package without its tests.
func testsConcurrent(pass *analysis.Pass, dir string) bool {
	seen := make(map[string]bool)
	for _, f := range pass.Files {
		seen[pass.Fset.File(f.Pos()).Name()] = true // hasConcurrency saw it
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
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
func printNote(pass *analysis.Pass, msg string) {
	fmt.Fprintf(os.Stderr, "pecanvet: %s: %s\n", pass.Pkg.Path(), msg)
}

// report turns reproduced findings into diagnostics: one per reporting
// position and kind (the strongest evidence first), the others mentioned.
func report(pass *analysis.Pass, found []check.Finding) {
	files := fileIndex(pass)
	type key struct {
		pos  token.Pos
		kind string
	}
	groups := map[key][]check.Finding{}
	var order []key
	for _, f := range found {
		pos := files.pos(reportSite(f))
		if !pos.IsValid() {
			continue // the anomaly starts outside this package's files
		}
		k := key{pos, f.Anomaly.Pattern.Kind}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], f)
	}
	for _, k := range order {
		fs := groups[k]
		sort.SliceStable(fs, func(i, j int) bool {
			if a, b := strength(fs[i]), strength(fs[j]); a != b {
				return a > b
			}
			return fs[i].Anomaly.Key < fs[j].Anomaly.Key
		})
		f := fs[0]
		msg := Message(f)
		if len(fs) > 1 {
			msg += fmt.Sprintf(" (and %d more %s here)", len(fs)-1, plural(pattern.KindName(f.Anomaly.Pattern.Kind), len(fs)-1))
		}
		d := analysis.Diagnostic{Pos: k.pos, Category: f.Anomaly.Pattern.Kind, Message: msg}
		for _, l := range replay.Clip(f.Schedule) {
			if l.Step == 0 {
				continue
			}
			p := files.pos(l.Site)
			if !p.IsValid() {
				continue
			}
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: p, Message: strings.TrimSpace(fmt.Sprintf("step %d: %s %s %s", l.Step, l.G, l.Op, l.Obj))})
		}
		pass.Report(d)
	}
}

// reportSite is where a finding is reported: its first event's site,
// except for two-event patterns matched in either order (races), which are
// reported at the earlier of their two sites in the source, so that the
// position does not depend on which order replay proved.
func reportSite(f check.Finding) string {
	s := f.Anomaly.Sites
	if f.Anomaly.Pattern.Adjacent && len(s) == 2 && siteLess(s[1], s[0]) {
		return s[1]
	}
	return s[0]
}

// ReportSite is reportSite for other reporters (SARIF): they put a
// finding where the vet diagnostic is.
func ReportSite(f check.Finding) string { return reportSite(f) }

// siteLess orders "path:line:col" sites by path, then line and column.
func siteLess(a, b string) bool {
	pa, pb := strings.Split(a, ":"), strings.Split(b, ":")
	if len(pa) < 2 || len(pb) < 2 || pa[0] != pb[0] {
		return a < b
	}
	for i := 1; i < len(pa) && i < len(pb); i++ {
		x, _ := strconv.Atoi(pa[i])
		y, _ := strconv.Atoi(pb[i])
		if x != y {
			return x < y
		}
	}
	return len(pa) < len(pb)
}

func plural(w string, n int) string {
	if n == 1 {
		return w
	}
	return w + "s"
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

// Message is the one-line diagnostic of a finding, e.g.
//
//	atomicity violation on Counter.n: another goroutine's write (counter.go:22)
//	can fall between this read and the write at counter.go:22; reproduced, test
//	fails: counter_test.go:14: n = 1, want 2; g1 read Counter.n (counter.go:21)
//	→ g2 write Counter.n (counter.go:22) → g1 write Counter.n (counter.go:22)
func Message(f check.Finding) string {
	a := f.Anomaly
	steps := make([]string, len(a.Events))
	gs := make([]string, len(a.Events))
	for k := range a.Events {
		st := f.Schedule.Steps[f.Schedule.Anomaly[k]]
		steps[k] = opWord(st.Op.String())
		gs[k] = st.G
	}
	objs := f.ObjectNames()
	var b strings.Builder
	fmt.Fprintf(&b, "%s on %s: ", pattern.KindName(a.Pattern.Kind), strings.Join(objs, ", "))
	short := func(k int) string { return shortSite(a.Sites[k]) }
	switch {
	case len(a.Events) == 2:
		r, o := 0, 1
		if reportSite(f) != a.Sites[0] {
			r, o = 1, 0
		}
		if f.Verdict.RaceDetector {
			fmt.Fprintf(&b, "no synchronization orders this %s and another goroutine's %s (%s), and Go's race detector reported them; no schedule runs them back to back (one is reached only after seeing the other's effect through something that does not synchronize, such as len of a channel); steps of the recorded run: %s", steps[r], steps[o], short(o), Interleaving(f))
			if f.Driver != "" {
				b.WriteString("; found by a generated driver calling " + f.Driver + " concurrently")
			}
			return b.String()
		}
		fmt.Fprintf(&b, "this %s and another goroutine's %s (%s) can run back to back", steps[r], steps[o], short(o))
	case len(a.Events) == 3 && gs[0] == gs[2] && gs[1] != gs[0]:
		fmt.Fprintf(&b, "another goroutine's %s (%s) can fall between this %s and the %s at %s", steps[1], short(1), steps[0], steps[2], short(2))
	default:
		fmt.Fprintf(&b, "this %s", steps[0])
		for k := 1; k < len(steps); k++ {
			who := "this goroutine's"
			if gs[k] != gs[0] {
				who = "another goroutine's"
			}
			fmt.Fprintf(&b, ", then %s %s (%s)", who, steps[k], short(k))
		}
		b.WriteString(" can happen in this order")
	}
	b.WriteString("; reproduced")
	if c := f.Verdict.Consequence; c != "" {
		b.WriteString(", " + c)
	}
	if f.Driver != "" {
		// No test of the package ran the two calls concurrently: say what
		// did, since the clip's first steps are in the generated test.
		b.WriteString("; found by a generated driver calling " + f.Driver + " concurrently")
	}
	b.WriteString("; " + Interleaving(f))
	if f.WithoutEffect() {
		if a.Split == "" {
			return "interleaving without effect: " + b.String() + " (the generated driver's test passes: the calls showed no outcome that no sequential order gives, and the package may never make them concurrent)"
		}
		return "interleaving without effect: " + b.String() + " (" + a.SplitWhy(shortSite) + ", and the test passes)"
	}
	return b.String()
}

// Interleaving is the anomaly's events in the order replay ran them, one
// line: "g1 read x (a.go:12) → g2 write x (b.go:30) → g1 write x (a.go:14)".
// It makes the message stand alone where the clip (Related) is dropped or
// split, as golangci-lint does.
func Interleaving(f check.Finding) string {
	idx := append([]int(nil), f.Schedule.Anomaly...)
	sort.Ints(idx)
	parts := make([]string, len(idx))
	for k, i := range idx {
		st := f.Schedule.Steps[i]
		obj := st.Obj
		if j := strings.LastIndexByte(obj, '#'); j > 0 {
			obj = obj[:j]
		}
		site := "?"
		if st.Site != "" {
			site = shortSite(st.Site)
		}
		parts[k] = strings.Join(strings.Fields(fmt.Sprintf("%s %s %s (%s)", st.G, opWord(st.Op.String()), obj, site)), " ")
	}
	return strings.Join(parts, " → ")
}

func opWord(op string) string {
	switch op {
	case "read", "atomic-load":
		return "read"
	case "write", "atomic-store":
		return "write"
	case "atomic-rmw":
		return "read-modify-write"
	}
	return op
}

func shortSite(s string) string {
	parts := strings.Split(filepath.Base(s), ":")
	if len(parts) >= 2 {
		return parts[0] + ":" + parts[1]
	}
	return s
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
			others = append(others, filepath.Base(pos.Filename)+":"+strconv.Itoa(pos.Line))
		}
		pass.Report(analysis.Diagnostic{Pos: c.Sites[0], Category: c.Kind,
			Message: fmt.Sprintf("possible %s (%s/%s) with %s; not confirmed (-pecan.replay=false)", pattern.KindName(c.Kind), c.Kind, c.Pattern, strings.Join(others, ", "))})
	}
}

// files maps "module-relative/path.go:line:col" sites to positions in the
// pass's files.
type files struct {
	fset   *token.FileSet
	byPath []*ast.File
	names  []string
}

func fileIndex(pass *analysis.Pass) *files {
	fs := &files{fset: pass.Fset}
	for _, f := range pass.Files {
		fs.byPath = append(fs.byPath, f)
		fs.names = append(fs.names, filepath.ToSlash(pass.Fset.File(f.Pos()).Name()))
	}
	return fs
}

func (fs *files) pos(site string) token.Pos {
	parts := strings.Split(site, ":")
	if len(parts) < 2 {
		return token.NoPos
	}
	path := parts[0]
	line, err := strconv.Atoi(parts[1])
	if err != nil || line < 1 {
		return token.NoPos
	}
	col := 1
	if len(parts) >= 3 {
		if c, err := strconv.Atoi(parts[2]); err == nil && c >= 1 {
			col = c
		}
	}
	for i, name := range fs.names {
		if name == path || strings.HasSuffix(name, "/"+path) {
			tf := fs.fset.File(fs.byPath[i].Pos())
			if line > tf.LineCount() {
				return token.NoPos
			}
			p := tf.LineStart(line) + token.Pos(col-1)
			if int(p) > tf.Base()+tf.Size() {
				return tf.LineStart(line)
			}
			return p
		}
	}
	return token.NoPos
}
