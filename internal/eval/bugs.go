package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// The bugs section (issues 28 and 29): kernels of real concurrency bugs
// from public issue trackers, each with its upstream fix, in the module
// testdata/bugs. pecanvet runs as users run it, `go vet -vettool=pecanvet
// -json ./...`, beside two baselines run the same way on the same module:
// one `go test -race -count=1` run (a race report) and one plain
// `go test -count=1 -timeout 20s` run (a failure: a panic, a deadlock the
// runtime reports, or a test still blocked at the timeout), and the same
// plain run with goleak.VerifyTestMain in every package (issue 29's
// baseline: a leaked goroutine that the test does not wait for is seen
// only by a leak check). Both see a blocking bug only if the bad schedule
// happens.

// bugRow is one kernel and its fixed twin.
type bugRow struct {
	name, kind          string
	found, fixedReports []string // pecanvet categories: expected ones in the buggy package; any in the fixed one
	other               []string // unexpected categories in the buggy package
	race, fixedRace     bool     // go test -race reported a race
	plain, fixedPlain   string   // how the plain run failed ("" if it passed)
	leak, fixedLeak     string   // how the run with goleak failed ("" if it passed)
}

// readBugTable reads name and kind from README.md's table.
func readBugTable(path string) ([][2]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out [][2]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cells := strings.Split(sc.Text(), "|")
		if len(cells) < 6 {
			continue
		}
		name, kind := strings.TrimSpace(cells[1]), strings.TrimSpace(cells[4])
		switch kind {
		case "deadlock", "leak", "panic", "wg", "race", "av":
			out = append(out, [2]string{name, kind})
		}
	}
	return out, sc.Err()
}

// blockingKind says whether kind belongs to issue 29's group: a
// WaitGroup.Add after Wait (wg) is one of Tu et al.'s blocking bugs
// (misuse of Wait), though its effect is that Wait does not block.
func blockingKind(kind string) bool {
	return kind == "deadlock" || kind == "leak" || kind == "panic" || kind == "wg"
}

// expectedCategory says whether a pecanvet report of category cat finds a
// bug of this kind: a deadlock or leak report for a blocking bug; for a
// send on a closed channel the chan pattern's report (category race, its
// message naming the send and the close); a race, av or asv report for a
// non-blocking bug; for a WaitGroup.Add after Wait the sync pattern's
// report, or the race of the race detector's model of a WaitGroup that
// stands for it with the sync patterns off; for an atomicity (or order)
// violation also the order pattern's report (two critical sections of
// one lock in the other serial order: grpc2371, etcd6429).
func expectedCategory(kind, cat string) bool {
	switch kind {
	case "deadlock", "leak":
		return cat == "deadlock" || cat == "leak"
	case "wg":
		return cat == "sync" || cat == "race"
	case "av":
		return cat == "race" || cat == "av" || cat == "asv" || cat == "order"
	default:
		return cat == "race" || cat == "av" || cat == "asv"
	}
}

// goTestJSON runs go test -json and returns each package's output.
func goTestJSON(ctx context.Context, c *config, dir string, args ...string) (map[string]string, *run) {
	r := measure(ctx, c.raceTimeout, dir, nil, "go", append([]string{"test", "-json"}, args...)...)
	out := map[string]*strings.Builder{}
	dec := json.NewDecoder(strings.NewReader(string(r.Stdout)))
	for {
		var ev struct{ Package, Output string }
		if err := dec.Decode(&ev); err != nil {
			break
		}
		if out[ev.Package] == nil {
			out[ev.Package] = &strings.Builder{}
		}
		out[ev.Package].WriteString(ev.Output)
	}
	res := map[string]string{}
	for p, b := range out {
		res[p] = b.String()
	}
	return res, r
}

// goleakVersion is the goleak the leak-checked baseline runs with.
const goleakVersion = "go.uber.org/goleak@v1.3.0"

// goleakRun runs the plain baseline again in a copy of the module in
// which every package's tests run under goleak.VerifyTestMain, as a
// user adding goleak would. It returns each package's output, or nil
// and a note saying why it could not run.
func goleakRun(ctx context.Context, c *config, abs string) (map[string]string, string) {
	dir := filepath.Join(c.tmpDir(), "bugs-goleak")
	os.RemoveAll(dir)
	if err := os.CopyFS(dir, os.DirFS(abs)); err != nil {
		return nil, "goleak baseline: copy: " + err.Error()
	}
	env := []string{"GOFLAGS=-mod=mod"}
	if r := measure(ctx, c.stepTimeout, dir, env, "go", "get", goleakVersion); r.describe() != "ok" {
		return nil, "goleak baseline: go get " + goleakVersion + ": " + r.describe() + ": " + lastLines(r.Stderr, 3)
	}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := testPackage(p)
		if name == "" {
			return nil
		}
		src := "package " + name + "\n\nimport (\n\t\"testing\"\n\n\t\"go.uber.org/goleak\"\n)\n\nfunc TestMain(m *testing.M) { goleak.VerifyTestMain(m) }\n"
		return os.WriteFile(filepath.Join(p, "zz_goleak_eval_test.go"), []byte(src), 0o644)
	})
	if err != nil {
		return nil, "goleak baseline: " + err.Error()
	}
	out, _ := goTestJSON(ctx, c, dir, "-count=1", "-timeout", "20s", "./...")
	return out, ""
}

// testPackage is the package name of dir's tests (a _test.go file's
// package clause, without an external test package's _test), or "" when
// dir has no tests.
func testPackage(dir string) string {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		for line := range strings.Lines(string(b)) {
			if name, ok := strings.CutPrefix(strings.TrimSpace(line), "package "); ok {
				return strings.TrimSuffix(strings.Fields(name)[0], "_test")
			}
		}
	}
	return ""
}

// leakFailure says how a run under goleak failed: "leak" when goleak
// found goroutines left, else plainFailure's answer.
func leakFailure(out string) string {
	if strings.Contains(out, "found unexpected goroutines") {
		return "leak"
	}
	return plainFailure(out)
}

// plainFailure says how a plain run of one package failed, or "".
func plainFailure(out string) string {
	switch {
	case strings.Contains(out, "all goroutines are asleep"):
		return "deadlock"
	case strings.Contains(out, "panic: test timed out"):
		return "timeout"
	case strings.Contains(out, "panic:"):
		return "panic"
	case strings.Contains(out, "--- FAIL") || strings.Contains(out, "FAIL\t"):
		return "fail"
	}
	return ""
}

func (c *config) runBugs(out, dir string) error {
	start := time.Now()
	ctx := context.Background()
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	table, err := readBugTable(filepath.Join(abs, "README.md"))
	if err != nil {
		return fmt.Errorf("bugs: %v", err)
	}
	progress("bugs: go test -race -count=1 on %s", abs)
	race, raceRun := goTestJSON(ctx, c, abs, "-race", "-count=1", "-timeout", "20s", "./...")
	progress("bugs: go test -count=1 -timeout 20s")
	plain, plainRun := goTestJSON(ctx, c, abs, "-count=1", "-timeout", "20s", "./...")
	progress("bugs: go test -count=1 -timeout 20s with goleak.VerifyTestMain")
	leak, leakNote := goleakRun(ctx, c, abs)
	stats := filepath.Join(c.tmpDir(), "bugs-stats.jsonl")
	args := vetArgs(c, stats)
	progress("bugs: go %s", strings.Join(args, " "))
	vet := measure(ctx, c.vetTimeout, abs, nil, "go", args...)
	progress("bugs: go vet: %s in %s", vet.describe(), secs(vet.Wall))
	diags, errs, err := parseVetJSON(vet.Stdout)
	var notes []string
	if err != nil {
		notes = append(notes, err.Error())
	}
	if leakNote != "" {
		notes = append(notes, leakNote)
	}
	byPkg := map[string][]diag{}
	for _, d := range diags {
		byPkg[d.Package] = append(byPkg[d.Package], d)
	}
	var rows []*bugRow
	for _, nk := range table {
		r := &bugRow{name: nk[0], kind: nk[1]}
		pkg, fixed := "bugs/"+r.name, "bugs/"+r.name+"fixed"
		for _, d := range byPkg[pkg] {
			if expectedCategory(r.kind, d.Category) {
				r.found = append(r.found, d.Category)
			} else {
				r.other = append(r.other, d.Category)
			}
		}
		for _, d := range byPkg[fixed] {
			r.fixedReports = append(r.fixedReports, d.Category)
		}
		r.race = strings.Contains(race[pkg], "WARNING: DATA RACE")
		r.fixedRace = strings.Contains(race[fixed], "WARNING: DATA RACE")
		r.plain, r.fixedPlain = plainFailure(plain[pkg]), plainFailure(plain[fixed])
		if leak != nil {
			r.leak, r.fixedLeak = leakFailure(leak[pkg]), leakFailure(leak[fixed])
		}
		rows = append(rows, r)
	}
	notes = append(notes, pecanNotes(vet.Stderr)...)
	if vet.describe() != "ok" {
		notes = append(notes, "go vet: "+vet.describe()+": "+lastLines(vet.Stderr, 5))
	}
	text := renderBugs(rows, c) + renderNotes(notes, errs) +
		fmt.Sprintf("\nWall time: go vet %s, go test -race %s, plain go test %s. Generated by `make eval-bugs` on %s (section took %v).\n",
			secs(vet.Wall), secs(raceRun.Wall), secs(plainRun.Wall), time.Now().UTC().Format("2006-01-02 15:04 MST"), time.Since(start).Round(time.Second))
	fmt.Print(text)
	return writeSection(out, "bugs", text)
}

// tmpDir is a scratch directory for the section's files.
func (c *config) tmpDir() string {
	if c.tmpBin != "" {
		return c.tmpBin
	}
	d, err := os.MkdirTemp("", "pecanvet-eval-bugs-")
	if err != nil {
		return os.TempDir()
	}
	c.tmpBin = d
	return d
}

func yn(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

func renderBugs(rows []*bugRow, c *config) string {
	var b strings.Builder
	b.WriteString("## Real concurrency bugs (testdata/bugs)\n\n")
	b.WriteString("Kernels of real bugs from public issue trackers, each beside its upstream fix (testdata/bugs/README.md). ")
	fmt.Fprintf(&b, "pecanvet ran as users run it, `go vet -vettool=pecanvet -json ./...` on the module%s; found means a report of the bug's kind in the buggy package (deadlock or leak for deadlock/leak; sync for wg, a WaitGroup.Add after Wait; race, av or asv for race/av and for a send on a closed channel, order too for av, whose chan pattern reports as race), and the fixed twin must have none. ", flagsNote(c))
	b.WriteString("Baselines, run the same way on the same module: one `go test -race -count=1` run (found: a race report), one plain `go test -count=1 -timeout 20s` run (found: the test failed, panicked, deadlocked or timed out), and the same plain run with `goleak.VerifyTestMain` (" + goleakVersion + ") added to every package, in a copy of the module (found: goleak saw goroutines left, or the run failed as above). All three see a bug only if the run takes the bad schedule, which the tests avoid by design.\n\n")
	b.WriteString("| bug | kind | pecanvet | other reports | fixed twin (pecanvet) | -race | fixed (-race) | plain run | fixed (plain) | goleak run | fixed (goleak) |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.name, r.kind,
			yn(len(r.found) > 0), orDash(strings.Join(uniqSorted(r.other), ",")),
			orDash(strings.Join(uniqSorted(r.fixedReports), ",")),
			yn(r.race), yn(r.fixedRace), orDash(r.plain), orDash(r.fixedPlain), orDash(r.leak), orDash(r.fixedLeak))
	}
	b.WriteString("\n| group | bugs | pecanvet found | fixed twins silent | -race found | plain run found | goleak run found |\n|---|--:|--:|--:|--:|--:|--:|\n")
	for _, g := range []struct {
		name  string
		match func(string) bool
	}{
		{"blocking (deadlock, leak, panic, wg)", blockingKind},
		{"non-blocking (race, av)", func(k string) bool { return !blockingKind(k) }},
	} {
		var n, found, silent, race, plain, leak int
		for _, r := range rows {
			if !g.match(r.kind) {
				continue
			}
			n++
			if len(r.found) > 0 {
				found++
			}
			if len(r.fixedReports) == 0 {
				silent++
			}
			if r.race {
				race++
			}
			if r.plain != "" {
				plain++
			}
			if r.leak != "" {
				leak++
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %d/%d | %d/%d | %d/%d | %d/%d | %d/%d |\n", g.name, n, found, n, silent, n, race, n, plain, n, leak, n)
	}
	return b.String()
}

func uniqSorted(xs []string) []string {
	out := uniq(xs)
	sort.Strings(out)
	return out
}
