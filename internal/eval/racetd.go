package main

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"

	"github.com/pecanvet/pecanvet/passes/pecan"
)

// The race-testdata section (issue 9): Go's own race detector conformance
// suite, $(go env GOROOT)/src/runtime/race/testdata, made a module and
// checked the way users run pecanvet, `go vet -vettool=pecanvet ./...`,
// beside one `go test -race -count=1 -v ./...` run.

// raceTDDrop are the files left out: cgo needs a C compiler and its own
// main, synctest needs a GOEXPERIMENT in older toolchains.
var raceTDDrop = map[string]bool{"cgo_test.go": true, "cgo_test_main.go": true, "synctest_test.go": true}

// raceTDDropFuncs are the tests left out: TestNoRaceIssue60934 calls
// runtime.RaceDisable, which exists only with the race build tag.
var raceTDDropFuncs = map[string]bool{"TestNoRaceIssue60934": true}

// prepareRaceTestdata copies src's *.go files into dst, a module named
// racetd at the toolchain's go version, less raceTDDrop and
// raceTDDropFuncs.
func prepareRaceTestdata(src, dst string) error {
	names, err := filepath.Glob(filepath.Join(src, "*.go"))
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return fmt.Errorf("%s: no Go files", src)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	dropped := map[string]bool{}
	for _, name := range names {
		base := filepath.Base(name)
		if raceTDDrop[base] {
			continue
		}
		b, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		b, gone, err := dropFuncs(name, b, raceTDDropFuncs)
		if err != nil {
			return err
		}
		for _, g := range gone {
			dropped[g] = true
		}
		if err := os.WriteFile(filepath.Join(dst, base), b, 0o644); err != nil {
			return err
		}
	}
	for f := range raceTDDropFuncs {
		if !dropped[f] {
			// Harmless (the test is gone upstream), but say so.
			fmt.Fprintf(os.Stderr, "eval: racetd: %s not found in %s\n", f, src)
		}
	}
	mod := fmt.Sprintf("module racetd\n\ngo %s\n", goLine(runtime.Version()))
	return os.WriteFile(filepath.Join(dst, "go.mod"), []byte(mod), 0o644)
}

// goLine turns a toolchain version (go1.26.8, go1.27rc1, devel ...) into a
// go.mod go line (1.26).
func goLine(v string) string {
	m := regexp.MustCompile(`go1\.(\d+)`).FindStringSubmatch(v)
	if m == nil {
		return "1.21"
	}
	return "1." + m[1]
}

// dropFuncs removes the named top-level functions, with their doc comments
// and the line break after them, from the file's source.
func dropFuncs(name string, src []byte, drop map[string]bool) ([]byte, []string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, err
	}
	type span struct{ from, to int }
	var cut []span
	var gone []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || !drop[fd.Name.Name] {
			continue
		}
		from := fset.Position(fd.Pos()).Offset
		if fd.Doc != nil {
			from = fset.Position(fd.Doc.Pos()).Offset
		}
		to := fset.Position(fd.End()).Offset
		if to < len(src) && src[to] == '\n' {
			to++
		}
		cut = append(cut, span{from, to})
		gone = append(gone, fd.Name.Name)
	}
	sort.Slice(cut, func(i, j int) bool { return cut[i].from > cut[j].from })
	for _, c := range cut {
		src = append(src[:c.from:c.from], src[c.to:]...)
	}
	return src, gone, nil
}

// raceTDResult is the race-testdata section's numbers.
type raceTDResult struct {
	raceTotal, noRaceTotal, total int
	found                         []string // TestRace* with a pecanvet race report
	otherKinds                    []string // TestRace* with only av/asv reports
	raceFound                     []string // TestRace* that go test -race fails
	noRaceReports                 []string // reports inside TestNoRace*, described
	raceNoRaceFails               []string // TestNoRace* that go test -race fails
	unattributed                  []string // reports outside any test function
	checked                       int      // tests checked, from -pecan.stats
	stats                         []pecan.Stats
	packages                      []pkgRow
	notes                         []string
	vet, race                     *run
	vetErrs                       []string
}

func evalRaceTD(ctx context.Context, cfg *config) (*raceTDResult, error) {
	src := filepath.Join(runtime.GOROOT(), "src", "runtime", "race", "testdata")
	if out, err := goEnv("GOROOT"); err == nil {
		src = filepath.Join(out, "src", "runtime", "race", "testdata")
	}
	work, err := os.MkdirTemp("", "pecanvet-eval-racetd-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	dir := filepath.Join(work, "racetd")
	progress("racetd: preparing %s from %s", dir, src)
	if err := prepareRaceTestdata(src, dir); err != nil {
		return nil, err
	}
	funcs, err := testFuncs(dir)
	if err != nil {
		return nil, err
	}
	res := &raceTDResult{total: len(funcs)}
	if res.total == 0 {
		return nil, fmt.Errorf("%s: no tests after preparation", dir)
	}
	for _, f := range funcs {
		switch {
		case strings.HasPrefix(f.Name, "TestRace"):
			res.raceTotal++
		case strings.HasPrefix(f.Name, "TestNoRace"):
			res.noRaceTotal++
		}
	}
	res.notes = append(res.notes, warmDeps(ctx, cfg, dir)...)

	progress("racetd: go test -race -count=1 -v ./... (bound %v)", cfg.raceTimeout)
	res.race = measure(ctx, cfg.raceTimeout, dir, nil, "go", "test", "-race", "-count=1", "-v", "-timeout", "0", "./...")
	progress("racetd: go test -race: %s in %s", res.race.describe(), secs(res.race.Wall))
	res.raceFound, res.raceNoRaceFails = raceFailures(res.race.Stdout)

	stats := filepath.Join(work, "stats.jsonl")
	args := vetArgs(cfg, stats)
	res.notes = append(res.notes, warmVet(ctx, cfg, dir, args, stats)...)
	progress("racetd: go %s (bound %v)", strings.Join(args, " "), cfg.vetTimeout)
	res.vet = measure(ctx, cfg.vetTimeout, dir, nil, "go", args...)
	progress("racetd: go vet: %s in %s", res.vet.describe(), secs(res.vet.Wall))
	diags, errs, err := parseVetJSON(res.vet.Stdout)
	if err != nil {
		res.notes = append(res.notes, err.Error())
	}
	res.vetErrs = errs
	found := map[string]bool{}
	for _, d := range diags {
		t := testOf(funcs, d)
		switch {
		case t == "":
			res.unattributed = append(res.unattributed, d.Category+" at "+relPosn(dir, d.Posn)+": "+d.Message)
		case strings.HasPrefix(t, "TestRace"):
			// -race reports a WaitGroup misused across goroutines as a
			// race on it; pecanvet names it (sync: WaitGroup.Add after Wait).
			found[t] = found[t] || d.Category == "race" || d.Category == "sync"
		case strings.HasPrefix(t, "TestNoRace"):
			res.noRaceReports = append(res.noRaceReports, t+": "+d.Category+" at "+relPosn(dir, d.Posn)+": "+d.Message)
		}
	}
	for t, race := range found {
		if race {
			res.found = append(res.found, t)
		} else {
			res.otherKinds = append(res.otherKinds, t)
		}
	}
	sort.Strings(res.found)
	sort.Strings(res.otherKinds)
	st, err := readStats(stats)
	if err != nil {
		res.notes = append(res.notes, err.Error())
	}
	res.stats = st
	res.packages = packageRows(ctx, dir, st, nil, vetCut(res.vet, cfg.vetTimeout))
	for _, p := range res.packages {
		res.checked += p.checked
	}
	res.notes = append(res.notes, pecanNotes(res.vet.Stderr)...)
	if res.vet.describe() != "ok" {
		res.notes = append(res.notes, "go vet: "+res.vet.describe()+": "+lastLines(res.vet.Stderr, 5))
	}
	return res, nil
}

var failLine = regexp.MustCompile(`(?m)^\s*--- FAIL: (Test\w+)`)

// raceFailures lists the TestRace* and TestNoRace* that a go test -v run
// failed (with -race, the race detector fails a test that races).
func raceFailures(out []byte) (race, noRace []string) {
	seen := map[string]bool{}
	for _, m := range failLine.FindAllSubmatch(out, -1) {
		t := string(m[1])
		if seen[t] {
			continue
		}
		seen[t] = true
		switch {
		case strings.HasPrefix(t, "TestRace"):
			race = append(race, t)
		case strings.HasPrefix(t, "TestNoRace"):
			noRace = append(noRace, t)
		}
	}
	sort.Strings(race)
	sort.Strings(noRace)
	return race, noRace
}

func relPosn(dir, posn string) string {
	if r, err := filepath.Rel(dir, posn); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return posn
}

func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " / ")
}

func renderRaceTD(r *raceTDResult, cfg *config) string {
	var b strings.Builder
	b.WriteString("## Go's race testdata\n\n")
	fmt.Fprintf(&b, "`$(go env GOROOT)/src/runtime/race/testdata` (%s) made a module: cgo and synctest files and `TestNoRaceIssue60934` (race build tag) removed; %d tests, %d `TestRace*`, %d `TestNoRace*`. ", runtime.Version(), r.total, r.raceTotal, r.noRaceTotal)
	fmt.Fprintf(&b, "pecanvet ran as users run it, `go vet -vettool=pecanvet -json ./...`%s; each report is attributed to the test function that holds it (or, failing that, the first step of its clip). ", flagsNote(cfg))
	b.WriteString("Both commands ran with `-count=1` on the same warm build cache (the package's dependencies built beforehand, for -race and without; the package itself in a fresh directory, so built by both); wall time includes the build (and, for -race, the race runtime's default 1 s sleep at exit, as users see it). " + vetCacheNote + "\n\n")
	b.WriteString("| | pecanvet (go vet) | go test -race |\n|---|--:|--:|\n")
	fmt.Fprintf(&b, "| `TestRace*` found (a race reported in it, or a WaitGroup.Add after Wait; -race: the test failed) | %d/%d | %d/%d |\n", len(r.found), r.raceTotal, len(r.raceFound), r.raceTotal)
	fmt.Fprintf(&b, "| `TestRace*` with only another kind of report (atomicity, atomic-set, blocking) | %d | – |\n", len(r.otherKinds))
	fmt.Fprintf(&b, "| reports inside `TestNoRace*` (must be 0) | %d | %d |\n", len(r.noRaceReports), len(r.raceNoRaceFails))
	fmt.Fprintf(&b, "| tests checked | %d/%d | %d/%d |\n", r.checked, r.total, r.total, r.total)
	fmt.Fprintf(&b, "| wall time | %s (%s of -race) | %s |\n", secs(r.vet.Wall), ratio(r.vet.Wall, r.race.Wall), secs(r.race.Wall))
	// On a shared machine wall times stretch with its load; CPU times
	// (user and system, of every process waited for) do not.
	fmt.Fprintf(&b, "| CPU time (user and system, the whole tree) | %s (%s of -race) | %s |\n", secs(r.vet.CPU), ratio(r.vet.CPU, r.race.CPU), secs(r.race.CPU))
	if t := timeSplit(r.stats); t != "" {
		fmt.Fprintf(&b, "| where pecanvet's time went (summed over processes) | %s | |\n", t)
	}
	fmt.Fprintf(&b, "| peak RSS, largest process | %s | %s |\n", mib(r.vet.MaxRSS), mib(r.race.MaxRSS))
	fmt.Fprintf(&b, "| peak RSS, whole tree (sampled) | %s (%s) | %s (%s) |\n", mib(r.vet.TreeRSS), r.vet.PeakProc, mib(r.race.TreeRSS), r.race.PeakProc)
	fmt.Fprintf(&b, "| how it ended | %s | %s |\n", r.vet.describe(), r.race.describe())
	b.WriteString("\n")
	b.WriteString(renderPackages(r.packages))
	if len(r.noRaceReports) > 0 {
		b.WriteString("\nReports inside `TestNoRace*` (false positives):\n\n")
		for _, s := range r.noRaceReports {
			fmt.Fprintf(&b, "- %s\n", oneLine(s))
		}
	}
	if len(r.raceNoRaceFails) > 0 {
		fmt.Fprintf(&b, "\n`go test -race` failed these `TestNoRace*`: %s\n", strings.Join(r.raceNoRaceFails, ", "))
	}
	if len(r.unattributed) > 0 {
		b.WriteString("\nReports outside any test function:\n\n")
		for _, s := range r.unattributed {
			fmt.Fprintf(&b, "- %s\n", oneLine(s))
		}
	}
	missed := diff(r.raceFound, r.found)
	if len(missed) > 0 {
		fmt.Fprintf(&b, "\n<details><summary>%d <code>TestRace*</code> that -race flags and pecanvet does not</summary>\n\n%s\n\n</details>\n", len(missed), strings.Join(missed, ", "))
	}
	if extra := diff(r.found, r.raceFound); len(extra) > 0 {
		fmt.Fprintf(&b, "\n`TestRace*` that pecanvet flags and this -race run did not (%d): %s\n", len(extra), strings.Join(extra, ", "))
	}
	b.WriteString(renderNotes(r.notes, r.vetErrs))
	return b.String()
}

// diff returns the elements of a not in b.
func diff(a, b []string) []string {
	in := map[string]bool{}
	for _, x := range b {
		in[x] = true
	}
	var out []string
	for _, x := range a {
		if !in[x] {
			out = append(out, x)
		}
	}
	return out
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 300 {
		s = s[:300] + " …"
	}
	return s
}

func renderNotes(notes, errs []string) string {
	if len(notes)+len(errs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n<details><summary>pecanvet's notes and errors</summary>\n\n")
	for _, e := range errs {
		fmt.Fprintf(&b, "- error: %s\n", oneLine(e))
	}
	const max = 40
	for i, n := range notes {
		if i == max {
			fmt.Fprintf(&b, "- … and %d more\n", len(notes)-max)
			break
		}
		fmt.Fprintf(&b, "- %s\n", oneLine(n))
	}
	b.WriteString("\n</details>\n")
	return b.String()
}

// timeSplit sums the -pecan.stats timings of the packages: build, record,
// predict and replay seconds, with the processes run.
func timeSplit(st []pecan.Stats) string {
	var t pecan.Stats
	for _, s := range st {
		t.Build += s.Build
		t.Record += s.Record
		t.Predict += s.Predict
		t.Replay += s.Replay
		t.Records += s.Records
		t.Replays += s.Replays
		t.LockRejected += s.LockRejected
	}
	if t.Build+t.Record+t.Predict+t.Replay == 0 {
		return ""
	}
	return fmt.Sprintf("build %.1f s, record %.1f s (%d tests), predict %.1f s, replay %.1f s (%d replays); the lock filter rejected %d candidates",
		t.Build, t.Record, t.Records, t.Predict, t.Replay, t.Replays, t.LockRejected)
}
