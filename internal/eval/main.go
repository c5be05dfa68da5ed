// Command eval evaluates pecanvet on its corpus and on code written
// elsewhere, and writes the results to EVAL.md.
//
// # The corpus
//
// On the subjects in testdata/src it measures what PECAN's Table 1 did,
// and prints a markdown table with PECAN's columns plus how `go test
// -race` fares on the same subjects:
//
//	Program | LOC | Goroutines | SV | Events | Overhead | Analysis | Transform |
//	Race | AV | ASV | REAL | EXP | F | race-1 | race-100 | known
//
// One row per subject and per fixed twin. LOC counts non-blank, non-comment
// lines of the package's non-test files. Goroutines and SV (shared
// locations, accessed by two goroutines, one writing) are the largest over
// the package's tests; Events is their sum. Overhead is the recorded test
// binary's median wall time over the plain one's, minus one, measured side
// by side. Analysis is the PTG build and search time, Transform the mean
// schedule generation time. Race/AV/ASV count the predictions (with a
// feasible schedule); REAL the reproduced ones (pecanvet check), EXP those
// whose replay made the test panic or fail, F the replays that were pruned.
// race-1 says whether `go test -race` reports a race in one run, race-100
// in how many of N runs (-race-runs). known says whether a reproduced
// anomaly involves the known bug's lines (SUBJECTS.md).
//
//	go run ./internal/eval [-subjects testdata/src] [-o EVAL.md] [-race-runs 100]
//
// Two more sections evaluate pecanvet on code written elsewhere, run as
// users run it (go vet -vettool=pecanvet) beside go test -race: Go's race
// detector testdata (racetd.go) and pinned modules from the module proxy
// (modules.go). -sections selects them:
//
//	go run ./internal/eval -sections racetd,modules [-modules-file internal/eval/modules.txt] [-modules conc,sync] [-vetflags -pecan.budget=2m]
//
// The bugs section (bugs.go) runs pecanvet and two baselines on kernels of
// real concurrency bugs, each with its upstream fix (testdata/bugs):
//
//	go run ./internal/eval -sections bugs [-bugs testdata/bugs]
//
// The checkwall section (checkwall.go) times the built pecanvet binary's
// check of each subject beside go test -race -count=1 on it:
//
//	go run ./internal/eval -sections checkwall [-only account,gauge]
//
// Each section replaces its own part of the -o file, between
// <!-- eval:NAME:begin --> and <!-- eval:NAME:end --> markers.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/dynamic/record"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/internal/note"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
)

type row struct {
	name                   string
	loc                    int
	goroutines, sv, events int
	overhead               float64
	analysis, transform    time.Duration
	race, av, asv          int
	real, exp, fail        int
	race1                  bool
	raceN, raceRuns        int
	known                  string // yes, no, or "" for fixed twins and unlisted subjects
	notes                  []note.Note
	reproducedSites        [][]string
	checkWall, raceWall    time.Duration // pecanvet check, and go test -race -count=1, build included
}

func main() {
	subjects := flag.String("subjects", "testdata/src", "the subjects module")
	out := flag.String("o", "EVAL.md", "write the table (and notes) to this file")
	raceRuns := flag.Int("race-runs", 100, "runs of the race-built tests for the race-100 column")
	only := flag.String("only", "", "evaluate only these subjects (comma-separated names)")
	cfg := sectionFlags()
	flag.Parse()
	if err := cfg.setup(); err != nil {
		fatal(err)
	}
	defer cfg.cleanup()
	if cfg.sections["racetd"] {
		if err := cfg.runRaceTD(*out); err != nil {
			fatal(err)
		}
	}
	if cfg.sections["modules"] {
		if err := cfg.runModules(*out); err != nil {
			fatal(err)
		}
	}
	if cfg.sections["bugs"] {
		if err := cfg.runBugs(*out, cfg.bugsDir); err != nil {
			fatal(err)
		}
	}
	if cfg.sections["checkwall"] {
		if err := cfg.runCheckWall(*out, *subjects, *only); err != nil {
			fatal(err)
		}
	}
	if cfg.sections["candidates"] {
		if err := cfg.runCandidates(*out, *subjects); err != nil {
			fatal(err)
		}
	}
	if !cfg.sections["corpus"] {
		return
	}
	dir, err := filepath.Abs(*subjects)
	if err != nil {
		fatal(err)
	}
	names, err := subjectNames(dir, *only)
	if err != nil {
		fatal(err)
	}
	known := knownLines(filepath.Join(dir, "SUBJECTS.md"))
	pats, _ := pattern.Builtin("all")
	var rows []*row
	start := time.Now()
	for i, name := range names {
		fmt.Fprintf(os.Stderr, "eval: [%d/%d] %s\n", i+1, len(names), name)
		r, err := evalSubject(dir, name, pats, *raceRuns)
		if err != nil {
			fatal(fmt.Errorf("%s: %v", name, err))
		}
		if lines, ok := known[name]; ok {
			r.known = "no"
			for _, sites := range r.reproducedSites {
				if matchesKnown(sites, lines) {
					r.known = "yes"
					break
				}
			}
		}
		rows = append(rows, r)
	}
	table := render(rows, *raceRuns)
	summary := summarize(rows, time.Since(start))
	doc := "## The evaluation subjects (testdata/src)\n\nGenerated by `make eval` (internal/eval) on " +
		time.Now().UTC().Format("2006-01-02") + ".\n\n" + table + "\n" + summary
	if err := writeSection(*out, "corpus", doc); err != nil {
		fatal(err)
	}
	fmt.Print(table)
	fmt.Print("\n" + summary)
	fmt.Printf("\neval: table written to %s\n", *out)
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "eval:", err)
	os.Exit(1)
}

// subjectNames lists the subject packages: buggy ones, each followed by its
// fixed twin.
func subjectNames(dir, only string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if e.IsDir() && !strings.HasSuffix(e.Name(), "fixed") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var out []string
	want := map[string]bool{}
	for _, n := range strings.Split(only, ",") {
		if n != "" {
			want[n] = true
		}
	}
	for _, n := range names {
		if len(want) > 0 && !want[n] {
			continue
		}
		out = append(out, n)
		if _, err := os.Stat(filepath.Join(dir, n+"fixed")); err == nil {
			out = append(out, n+"fixed")
		}
	}
	return out, nil
}

var lineRef = regexp.MustCompile(`([\w.]+\.go):(\d+)`)

// knownLines reads the "lines" column of SUBJECTS.md's buggy table.
func knownLines(path string) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	f, err := os.Open(path)
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cells := strings.Split(sc.Text(), "|")
		if len(cells) < 7 {
			continue
		}
		name := strings.TrimSpace(cells[1])
		set := map[string]bool{}
		for _, m := range lineRef.FindAllStringSubmatch(cells[5], -1) {
			set[m[1]+":"+m[2]] = true
		}
		if len(set) > 0 {
			out[name] = set
		}
	}
	return out
}

// matchesKnown reports whether at least two of an anomaly's sites (file:line,
// directory and column dropped) are among the known bug's lines.
func matchesKnown(sites []string, lines map[string]bool) bool {
	n := 0
	for _, s := range sites {
		parts := strings.Split(filepath.Base(s), ":")
		if len(parts) >= 2 && lines[parts[0]+":"+parts[1]] {
			n++
		}
	}
	return n >= 2
}

func evalSubject(dir, name string, pats []*pattern.Pattern, raceRuns int) (*row, error) {
	ctx := context.Background()
	r := &row{name: name, raceRuns: raceRuns}
	pkgDir := filepath.Join(dir, name)
	r.loc = countLOC(pkgDir)

	// The dynamic loop, as pecanvet check runs it, keeping the traces.
	traces, err := os.MkdirTemp("", "pecanvet-eval-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(traces)
	checkStart := time.Now()
	rep, err := check.Run(ctx, check.Options{Dir: dir, Patterns: []string{"./" + name}, Anomalies: pats, KeepTraces: traces})
	r.checkWall = time.Since(checkStart)
	if err != nil {
		return nil, err
	}
	r.notes = append(r.notes, rep.Notes...)
	for _, f := range rep.Findings {
		if f.Reproduced() {
			r.real++
			if f.Verdict.Panicked || !f.Verdict.Passed {
				r.exp++
			}
			r.reproducedSites = append(r.reproducedSites, f.Anomaly.Sites)
		} else {
			r.fail++
		}
	}
	// Trace statistics and the prediction columns, from the kept traces.
	var schedules int
	var schedTime time.Duration
	filepath.Walk(traces, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(p, ".trace") {
			return nil
		}
		tr, err := trace.ReadFile(p, trace.ReadOptions{Lenient: true})
		if err != nil || len(tr.Events) == 0 {
			return nil
		}
		r.events += len(tr.Events)
		r.goroutines = max(r.goroutines, len(tr.Goroutines))
		r.sv = max(r.sv, record.SharedLocations(tr))
		res, err := predict.Run(tr, pats, predict.Options{})
		if err != nil {
			return nil
		}
		r.analysis += res.Stats.Build + res.Stats.Search
		schedTime += res.Stats.Schedule
		schedules += res.Stats.Schedules
		for _, a := range res.Anomalies {
			switch a.Pattern.Kind {
			case "race":
				r.race++
			case "av":
				r.av++
			case "asv":
				r.asv++
			}
		}
		return nil
	})
	if schedules > 0 {
		r.transform = schedTime / time.Duration(schedules)
	}

	// Overhead, and the race detector, side by side.
	b, err := record.NewBuild(ctx, record.Options{Dir: dir, Patterns: []string{"./" + name}, Plain: true})
	if err != nil {
		return nil, err
	}
	defer b.Close()
	pkg := "subjects/" + name
	bin, plain := b.Binaries[pkg], b.Plain[pkg]
	if bin == "" {
		return r, nil
	}
	tmp, err := os.MkdirTemp("", "pecanvet-eval-bin-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	var tp, tr []float64
	for i := 0; i < 5; i++ {
		tp = append(tp, timeRun(plain, pkgDir, nil))
		tr = append(tr, timeRun(bin, pkgDir, []string{"PECANVET_TRACE=" + filepath.Join(tmp, "t.trace")}))
	}
	r.overhead = median(tr)/median(tp) - 1
	race := filepath.Join(tmp, "race.test")
	r.raceWall = raceWall(dir, pkg)
	cmd := exec.Command("go", "test", "-race", "-c", "-o", race, "-vet=off", pkg)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go test -race -c: %v\n%s", err, out)
	}
	for i := 0; i < raceRuns; i++ {
		c := exec.Command(race, "-test.count=1")
		c.Dir = pkgDir
		// The race runtime sleeps a second at exit by default.
		c.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0")
		out, _ := c.CombinedOutput()
		flagged := strings.Contains(string(out), "WARNING: DATA RACE")
		if i == 0 {
			r.race1 = flagged
		}
		if flagged {
			r.raceN++
		}
	}
	return r, nil
}

func timeRun(bin, dir string, env []string) float64 {
	cmd := exec.Command(bin, "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	start := time.Now()
	cmd.Run()
	return time.Since(start).Seconds()
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func countLOC(dir string) int {
	fset := token.NewFileSet()
	n := 0
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		f, err := parser.ParseFile(fset, e.Name(), src, parser.ParseComments)
		if err != nil {
			continue
		}
		comment := map[int]bool{}
		for _, cg := range f.Comments {
			for l := fset.Position(cg.Pos()).Line; l <= fset.Position(cg.End()).Line; l++ {
				comment[l] = true
			}
		}
		for i, line := range strings.Split(string(src), "\n") {
			t := strings.TrimSpace(line)
			if t == "" || (comment[i+1] && (strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*"))) {
				continue
			}
			n++
		}
	}
	return n
}

func ms(d time.Duration) string {
	if d < time.Millisecond {
		return fmt.Sprintf("%dµs", d.Microseconds())
	}
	return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func render(rows []*row, raceRuns int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| Program | LOC | Goroutines | SV | Events | Overhead | Analysis | Transform | Race | AV | ASV | REAL | EXP | F | race-1 | race-%d | known |\n", raceRuns)
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|--:|---|\n")
	for _, r := range rows {
		known := r.known
		if known == "" {
			known = "–"
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %.2fx | %s | %s | %d | %d | %d | %d | %d | %d | %s | %d/%d | %s |\n",
			r.name, r.loc, r.goroutines, r.sv, r.events, r.overhead, ms(r.analysis), ms(r.transform),
			r.race, r.av, r.asv, r.real, r.exp, r.fail, yesNo(r.race1), r.raceN, r.raceRuns, known)
	}
	return b.String()
}

func summarize(rows []*row, took time.Duration) string {
	var buggy, fixed, knownYes, knownAll, fixedClean, raceMissed, raceMissedFound int
	for _, r := range rows {
		if strings.HasSuffix(r.name, "fixed") {
			fixed++
			if r.real == 0 {
				fixedClean++
			}
			continue
		}
		buggy++
		if r.known != "" {
			knownAll++
			if r.known == "yes" {
				knownYes++
			}
		}
		if !r.race1 {
			raceMissed++
			if r.real > 0 {
				raceMissedFound++
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "- %d buggy subjects, %d fixed twins; evaluation took %v.\n", buggy, fixed, took.Round(time.Second))
	fmt.Fprintf(&b, "- Known bug reproduced (a REAL anomaly on two or more of its lines in SUBJECTS.md): %d of %d listed subjects.\n", knownYes, knownAll)
	fmt.Fprintf(&b, "- Fixed twins with REAL = 0: %d of %d.\n", fixedClean, fixed)
	fmt.Fprintf(&b, "- Buggy subjects `go test -race` does not flag in one run: %d; pecanvet reproduces an anomaly in %d of them.\n", raceMissed, raceMissedFound)
	b.WriteString(wallSummary(rows))
	for _, r := range rows {
		for _, n := range r.notes {
			if n.Kind == note.Replays || n.Kind == note.Budget || n.Kind == note.Timeout {
				fmt.Fprintf(&b, "- %s: %s\n", r.name, n)
			}
		}
	}
	return b.String()
}
