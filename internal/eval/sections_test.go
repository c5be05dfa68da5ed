package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/passes/pecan"
)

// TestPrepareRaceTestdata prepares the module from the toolchain's race
// testdata: the dropped files and TestNoRaceIssue60934 are gone, every
// other test is kept, and the files still parse.
func TestPrepareRaceTestdata(t *testing.T) {
	src := filepath.Join(runtime.GOROOT(), "src", "runtime", "race", "testdata")
	orig, err := testFuncs(src)
	if err != nil || len(orig) == 0 {
		t.Skipf("no race testdata in GOROOT: %v", err)
	}
	dst := filepath.Join(t.TempDir(), "racetd")
	if err := prepareRaceTestdata(src, dst); err != nil {
		t.Fatal(err)
	}
	for f := range raceTDDrop {
		if _, err := os.Stat(filepath.Join(dst, f)); err == nil {
			t.Errorf("%s kept", f)
		}
	}
	got, err := testFuncs(dst)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, f := range orig {
		if !raceTDDrop[filepath.Base(f.File)] && !raceTDDropFuncs[f.Name] {
			want[f.Name] = true
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d tests, want %d", len(got), len(want))
	}
	for _, f := range got {
		if raceTDDropFuncs[f.Name] || !want[f.Name] {
			t.Errorf("unexpected test %s", f.Name)
		}
	}
	mod, _ := os.ReadFile(filepath.Join(dst, "go.mod"))
	if !strings.HasPrefix(string(mod), "module racetd\n\ngo 1.") {
		t.Errorf("go.mod = %q", mod)
	}
}

func TestDropFuncs(t *testing.T) {
	src := "package p\n\nfunc A() {}\n\n// B is dropped.\nfunc B() {\n\t_ = 1\n}\n\nfunc C() {}\n"
	out, gone, err := dropFuncs("p.go", []byte(src), map[string]bool{"B": true})
	if err != nil {
		t.Fatal(err)
	}
	if want := "package p\n\nfunc A() {}\n\n\nfunc C() {}\n"; string(out) != want || len(gone) != 1 {
		t.Errorf("dropFuncs = %q %v, want %q", out, gone, want)
	}
}

func TestGoLine(t *testing.T) {
	for v, want := range map[string]string{"go1.26.8": "1.26", "go1.27rc1": "1.27", "devel +abc": "1.21"} {
		if got := goLine(v); got != want {
			t.Errorf("goLine(%q) = %q, want %q", v, got, want)
		}
	}
}

// TestVetJSONToTests: go vet -json's diagnostics are read (an analyzer
// error too) and attributed to the test function holding them, or to the
// one their clip passes through.
func TestVetJSONToTests(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "x_test.go")
	src := "package x\n\nimport \"testing\"\n\nfunc helper() {\n\t_ = 1\n}\n\nfunc TestRaceA(t *testing.T) {\n\thelper()\n}\n\nfunc TestNoRaceB(t *testing.T) {\n\t_ = 2\n}\n\nfunc Testlower(t *testing.T) {}\n\nfunc TestMain(m *testing.M) {}\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	funcs, err := testFuncs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(funcs) != 2 || funcs[0].Name != "TestRaceA" || funcs[1].Name != "TestNoRaceB" {
		t.Fatalf("testFuncs = %+v", funcs)
	}
	out := `{
	"x": {
		"pecan": [
			{"category": "race", "posn": "` + file + `:6:2", "message": "m1",
			 "related": [{"posn": "` + file + `:10:2", "message": "step 1"}]},
			{"category": "av", "posn": "` + file + `:14:2", "message": "m2"}
		]
	}
}
{
	"y": {
		"pecan": {"error": "boom"}
	}
}
`
	diags, errs, err := parseVetJSON([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) != 2 || len(errs) != 1 || errs[0] != "y: boom" {
		t.Fatalf("diags %+v errs %v", diags, errs)
	}
	if got := testOf(funcs, diags[0]); got != "TestRaceA" {
		t.Errorf("helper's report attributed to %q, want TestRaceA (through its clip)", got)
	}
	if got := testOf(funcs, diags[1]); got != "TestNoRaceB" {
		t.Errorf("attributed to %q, want TestNoRaceB", got)
	}
	if _, _, err := parseVetJSON([]byte("{not json")); err == nil {
		t.Error("no error for bad output")
	}
}

func TestRaceFailures(t *testing.T) {
	out := "=== RUN   TestRaceA\n--- FAIL: TestRaceA (0.00s)\n--- PASS: TestRaceB (0.00s)\n    --- FAIL: TestNoRaceC (0.01s)\n--- FAIL: TestRaceA (0.00s)\n"
	race, noRace := raceFailures([]byte(out))
	if strings.Join(race, ",") != "TestRaceA" || strings.Join(noRace, ",") != "TestNoRaceC" {
		t.Errorf("raceFailures = %v %v", race, noRace)
	}
}

func TestReadModules(t *testing.T) {
	p := filepath.Join(t.TempDir(), "m.txt")
	os.WriteFile(p, []byte("# comment\n\ngolang.org/x/sync@v0.24.0  # errgroup\nexample.com/a/v2@v2.0.1\n"), 0o644)
	ms, err := readModules(p)
	if err != nil || len(ms) != 2 || ms[0].String() != "golang.org/x/sync@v0.24.0" || ms[0].Why != "errgroup" || ms[1].Path != "example.com/a/v2" {
		t.Fatalf("readModules = %+v, %v", ms, err)
	}
	os.WriteFile(p, []byte("golang.org/x/sync\n"), 0o644)
	if _, err := readModules(p); err == nil || !strings.Contains(err.Error(), ":1:") {
		t.Errorf("no version: err = %v, want one naming the line", err)
	}
}

func TestReadTriage(t *testing.T) {
	p := filepath.Join(t.TempDir(), "triage.md")
	os.WriteFile(p, []byte("# Triage\n\n| key | verdict | reason |\n|---|---|---|\n| `m@v1 a/b.go:12 av` | false | the counter's Adds commute |\n| m@v1 c.go:3 race | true bug | unsynchronized flag |\n"), 0o644)
	tr, err := readTriage(p)
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := tr["m@v1 a/b.go:12 av"]; !ok || e.Verdict != "false" || e.Reason != "the counter's Adds commute" {
		t.Errorf("entry = %+v %v; all %v", e, ok, tr)
	}
	if e := tr["m@v1 c.go:3 race"]; e.Verdict != "true bug" {
		t.Errorf("entry = %+v", e)
	}
	os.WriteFile(p, []byte("| m@v1 c.go:3 race | maybe | hmm |\n"), 0o644)
	if _, err := readTriage(p); err == nil {
		t.Error("no error for a verdict that is neither")
	}
	m := modSpec{Path: "m", Version: "v1"}
	if k := reportKey(m, "/w/m", diag{Posn: "/w/m/a/b.go:12:7", Category: "av"}); k != "m@v1 a/b.go:12 av" {
		t.Errorf("reportKey = %q", k)
	}
}

// TestLists: the repository's module lists (modules.txt and every
// modules-trial*.txt) and triage file read without error, each trial list
// has at least 12 modules (issue 26; 8 for four early ones), no module is in
// two of the lists, every triaged report names a module@version of one of
// the lists (a row left behind by a version bump is stale), and each list
// has its make target and section name.
func TestLists(t *testing.T) {
	trials, err := filepath.Glob("modules-trial*.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(trials) < 9 {
		t.Fatalf("%d trial lists (%v), want the nine of sessions 13-24 at least", len(trials), trials)
	}
	lists := map[string][]modSpec{}
	for _, file := range append([]string{"modules.txt"}, trials...) {
		mods, err := readModules(file)
		if err != nil {
			t.Fatal(err)
		}
		lists[file] = mods
		if file == "modules.txt" {
			continue
		}
		want := 12
		switch file {
		case "modules-trial2.txt", "modules-trial3.txt", "modules-trial4.txt", "modules-trial7.txt":
			want = 8 // smaller trials, before issue 26 asked for 12
		case "modules-trial12.txt", "modules-trial13.txt":
			want = 7 // session 27's trial, in two halves of seven
		case "modules-trial14.txt":
			want = 7 // session 28's trial: the proxy refused the new candidates of the kinds issue 26 names
		case "modules-trial15.txt":
			want = 5 // session 29's trial: eight candidates left out (network, cgo, -race not ending), see its header
		case "modules-trial16.txt":
			want = 7 // session 30's trial
		case "modules-trial17.txt":
			want = 6 // session 31's trial: five candidates left out (missing test data, cgo, -race not ending), see its header
		case "modules-trial19.txt":
			want = 6 // session 34's trial: the proxy refused eight candidates of the kinds issue 26 names, see its header; inbucket moved to trial 21
		case "modules-trial20.txt":
			want = 3 // session 35's trial: the proxy refused eleven candidates, and the served list's modules of these kinds were all tried, see its header
		case "modules-trial21.txt":
			want = 6 // session 36's trial: the proxy refused sixteen candidates of 25 asked, four served ones left out, see its header
		case "modules-trial22.txt":
			want = 6 // session 39's trial: ten served candidates left out (-race not ending at load, servers, network, missing test data, no tests), see its header
		case "modules-trial23.txt":
			want = 8 // session 40's trial: nine served candidates left out (tests not building from the zip, -race not ending at load, no tests, not screened in time), see its header
		case "modules-trial24.txt":
			want = 9 // session 41's trial: seven served candidates left out (a replace of a nested module the zip lacks, cgo, too large for the session's load, not screened in time), see its header
		case "modules-trial25.txt":
			want = 5 // session 42's trial: the kinds issue 26 names were all tried or refused by the proxy, six served candidates left out (network, tests not building from the zip, -race not ending at load, failing tests, VMs), see its header
		case "modules-trial26.txt":
			want = 6 // session 44's trial: modules never checked before, of the kinds the proxy's list still had; one served candidate left out (go vet stops at its copy of the standard library), see its header
		case "modules-trial27.txt":
			want = 4 // session 45's trial: the proxy refused fourteen candidates of the kinds issue 26 names, three served ones left out for time at load 25-75, see its header
		case "modules-trial28.txt":
			want = 6 // session 46's trial: the proxy refused twenty more candidates, four served ones left out (network services, a private IP, no tests, tried code); hashicorp/raft added by trial28b, kcp-go and gnet left out for time; see its header
		case "modules-trial29.txt":
			want = 8 // session 47's trial: served only at exact versions; four served ones left out (a 4,000,000-goroutine test, -race not ending, an unresolvable import, tests failing on this Go), see its header
		case "modules-trial30.txt":
			want = 9 // session 48's trial: served only at exact versions; eight candidates left out (exact versions refused, no tests, no go.mod and servers, a test package not building, -race not ending at load, a mongo server), see its header
		case "modules-trial31.txt":
			want = 12 // session 49's trial: served only at exact versions; six candidates left out (a fork of a tried module, an import the proxy refuses, -race not ending at load, exact versions refused), see its header
		case "modules-trial32.txt":
			want = 12 // session 50's trial: served only at exact versions; ten served candidates left out (-race not ending in 300 s, go test's vet step failing, an import the proxy refuses, no tests, 100,000-goroutine tests), six exact versions refused, see its header
		case "modules-trial33.txt":
			want = 15 // session 51's trial: served only at exact versions; eight served candidates left out (-race not ending in 300 s, no Test function, an import the proxy refuses, serial tests over checked code, no tests, a mongo server), five exact versions refused, see its header
		case "modules-trial34.txt":
			want = 13 // session 52's trial: served only at exact versions; no circuit breaker or lock-order checker not checked before was served, five served candidates left out (go test's vet step failing, a fork's vet failure, no tests run, an import the proxy refuses), see its header
		case "modules-trial35.txt":
			want = 12 // session 53's trial: served only at exact versions; a thin breaker middleware and a lock-debugging wrapper, no new lock-order checker; eighteen served candidates left out (a public host, go mod tidy failing, go.mod lacking test requirements, -race not ending in 300 s, vet steps failing, no tests), see its header
		case "modules-trial36.txt":
			want = 12 // session 54's trial: served only at exact versions; brokers and event buses, an older lock-free map, no new lock-order checker or breaker (resty.dev/v3's breaker left out: its tests dial a public host), see its header
		case "modules-trial37.txt":
			want = 12 // session 55's trial: served only at exact versions; a breaker and limiter (oxy v1), event buses and a broker, xsync's first version, no new lock-order checker, see its header
		}
		if len(mods) < want {
			t.Errorf("%s has %d modules, want at least %d (issue 26)", file, len(mods), want)
		}
	}
	listed := map[string]bool{}
	inList := map[string]string{}
	for file, mods := range lists {
		for _, m := range mods {
			if other, ok := inList[m.Path]; ok {
				t.Errorf("%s is in both %s and %s", m.Path, other, file)
			}
			inList[m.Path] = file
			listed[m.String()] = true
		}
	}
	tr, err := readTriage("triage.md")
	if err != nil {
		t.Fatal(err)
	}
	for k := range tr {
		if mod, _, _ := strings.Cut(k, " "); !listed[mod] {
			t.Errorf("triage row %q names %s, in neither list", k, mod)
		}
	}
	makefile, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]string{"modules.txt": "modules", "internal/eval/modules-trial.txt": "modules-trial"}
	for _, file := range trials {
		sections[file] = strings.TrimSuffix(file, ".txt")
	}
	for file, want := range sections {
		if got := (&config{modulesFile: file}).modulesSection(); got != want {
			t.Errorf("modulesSection(%s) = %q, want %q", file, got, want)
		}
		target := "eval-" + strings.TrimPrefix(want, "modules-")
		if got := (&config{modulesFile: file}).makeTarget(); got != "make "+target {
			t.Errorf("makeTarget(%s) = %q, want %q", file, got, "make "+target)
		}
		if !bytes.Contains(makefile, []byte("\n"+target+":\n")) {
			t.Errorf("the Makefile has no target %s for %s", target, file)
		}
	}
}

// TestClassify: a package is checked only if its dynamic loop ran; tests
// the budget left are counted; the external test unit alone is a skip.
func TestClassify(t *testing.T) {
	st, reason, n := classify([]pecan.Stats{{Dynamic: true, TestsListed: 5, TestsChecked: 3}, {Skipped: "external test package: its tests run with p"}}, 0)
	if st != "checked" || n != 3 || !strings.Contains(reason, "2 of 5 tests not checked") {
		t.Errorf("classify = %q %q %d", st, reason, n)
	}
	if _, _, n := classify([]pecan.Stats{{Dynamic: true, TestsListed: 4, TestsChecked: 4}, {Package: "p_test", Dynamic: true, TestsListed: 4, TestsChecked: 4}}, 0); n != 4 {
		t.Errorf("two units checking the same directory: %d tests checked, want 4", n)
	}
	if st, _, _ := classify([]pecan.Stats{{Skipped: "no concurrency in the package or its tests (fast path)"}}, 0); st != "fast path" {
		t.Errorf("fast path classified %q", st)
	}
	if st, _, _ := classify([]pecan.Stats{{Skipped: "external test package: its tests run with p"}}, 0); st != "skipped" {
		t.Errorf("external-tests-only package classified %q", st)
	}
	if st, reason, _ := classify([]pecan.Stats{{Dynamic: true, Skipped: "dynamic check skipped: go: updates to go.mod needed"}}, 0); st != "skipped" || !strings.Contains(reason, "go.mod") {
		t.Errorf("failed check classified %q %q", st, reason)
	}
	// juju/clock's monotonic: the package's unit defers to its external
	// test package's, which takes the fast path.
	if st, _, _ := classify([]pecan.Stats{{Skipped: "its tests run in the unit of its external test package, p_test"}, {Package: "p_test", Skipped: "no concurrency in the package or its tests (fast path)"}}, 0); st != "fast path" {
		t.Errorf("a package whose external test unit took the fast path: %s, want fast path", st)
	}
	if st, reason, _ := classify([]pecan.Stats{{Skipped: "its tests run in the unit of its external test package, p_test"}}, 0); st != "skipped" || !strings.Contains(reason, "did not reach") {
		t.Errorf("a package deferring to an external test unit vet did not reach: %s (%s)", st, reason)
	}
	if st, reason, _ := classify(nil, 0); st != "skipped" || !strings.Contains(reason, "never ran") {
		t.Errorf("unreached package classified %q (%s)", st, reason)
	}
}

// TestClassifyCut: when go vet was stopped at its time bound, a package
// without a stats line is not one pecanvet never ran on (trial 32's
// go-timewheel was checked for the whole 25 min bound): its reason names
// the bound, and so does a package whose tests went to an external test
// unit without a line.
func TestClassifyCut(t *testing.T) {
	st, reason, _ := classify(nil, 25*time.Minute)
	if st != "skipped" || strings.Contains(reason, "never ran") || !strings.Contains(reason, "stopped at its time bound (25m0s)") {
		t.Errorf("a package without a result in a go vet run cut at its bound: %s (%s)", st, reason)
	}
	st, reason, _ = classify([]pecan.Stats{{Skipped: "its tests run in the unit of its external test package, p_test"}}, 25*time.Minute)
	if st != "skipped" || strings.Contains(reason, "did not reach") || !strings.Contains(reason, "time bound (25m0s)") {
		t.Errorf("a package deferring to an external test unit without a result, go vet cut: %s (%s)", st, reason)
	}
	if st, _, n := classify([]pecan.Stats{{Dynamic: true, TestsListed: 4, TestsChecked: 4}}, 25*time.Minute); st != "checked" || n != 4 {
		t.Errorf("a package checked before the bound: %s, %d tests", st, n)
	}
	// The run's own record: a vet run that timed out is cut at its bound.
	if got := vetCut(&run{TimedOut: true}, 25*time.Minute); got != 25*time.Minute {
		t.Errorf("vetCut of a timed-out run = %v", got)
	}
	if got := vetCut(&run{Exit: 1}, 25*time.Minute); got != 0 {
		t.Errorf("vetCut of a run that ended = %v", got)
	}
}

func TestWriteSection(t *testing.T) {
	p := filepath.Join(t.TempDir(), "EVAL.md")
	if err := writeSection(p, "a", "A1\n"); err != nil {
		t.Fatal(err)
	}
	if err := writeSection(p, "b", "B1"); err != nil {
		t.Fatal(err)
	}
	if err := writeSection(p, "a", "A2"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	want := "# pecanvet evaluation\n\n<!-- eval:a:begin -->\nA2\n<!-- eval:a:end -->\n\n<!-- eval:b:begin -->\nB1\n<!-- eval:b:end -->\n"
	if string(b) != want {
		t.Errorf("file = %q, want %q", b, want)
	}
	os.WriteFile(p, []byte("<!-- eval:a:begin -->\n"), 0o644)
	if err := writeSection(p, "a", "x"); err == nil {
		t.Error("no error for a missing end marker")
	}
}

// TestRenderModules: an untriaged report is flagged in the table and
// counted in the summary; a triaged one shows its verdict.
func TestRenderModules(t *testing.T) {
	r := &modResult{
		spec:     modSpec{Path: "example.com/m", Version: "v1.0.0"},
		goLine:   "1.20",
		packages: []pkgRow{{path: "example.com/m", tests: 4, checked: 3, status: "checked"}, {path: "example.com/m/x", tests: 2, status: "skipped", reason: "boom"}},
		reports: []modReport{
			{key: "example.com/m@v1.0.0 a.go:3 race", message: "data race", triage: &triageEntry{"true bug", "unguarded flag"}},
			{key: "example.com/m@v1.0.0 b.go:9 av", message: "atomicity violation"},
		},
		vet:  &run{Wall: 30 * time.Second, Exit: 0},
		race: &run{Wall: 10 * time.Second, Exit: 0, Stdout: []byte("WARNING: DATA RACE\n")},
		// Cold: vet exits 1 (reports), which is no failure.
		coldVet:  &run{Wall: 50 * time.Second, Exit: 1, CPU: 60 * time.Second},
		coldRace: &run{Wall: 40 * time.Second, Exit: 0, CPU: 30 * time.Second},
		// Drivers of two packages: 5 generated, 3 recorded, 1 of
		// them skipped; the other package's 2 ran.
		stats: []pecan.Stats{
			{Package: "example.com/m", DriversGenerated: 3, DriversRun: 0, DriverSkips: []string{"calling Put and Put one after the other panics (nil map): no usable receiver"}},
			{Package: "example.com/m/y", DriversGenerated: 2, DriversRun: 2},
		},
	}
	out := renderModules([]*modResult{r}, []modSpec{r.spec}, &config{modulesFile: "m.txt", triageFile: "t.md"})
	for _, want := range []string{
		"| example.com/m@v1.0.0 | 1.20 | 1/0/1 | 3/6 | 5/2/1 | 2 (⚠ 1) | 1 | 30.0 s | 10.0 s | 3.0x |",
		"Generated drivers: 5 generated, 2 run, 1 skipped: 1 no usable receiver (the calls panic one after the other).",
		"Generated drivers skipped: 1 of 3 recorded: 1 no usable receiver",
		"1 packages skipped, 3 of 6 tests checked",
		"2 reports (1 untriaged)",
		"true bug: unguarded flag",
		"`example.com/m@v1.0.0 b.go:9 av` — atomicity violation — ⚠ untriaged",
		"| example.com/m/x | 0/2 | skipped | boom |",
		"| example.com/m@v1.0.0 | 50.0 s | 40.0 s | 1.2x | 60.0 s | 30.0 s | 2.0x |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

// TestPackageRows: packages come from go list, their tests from the test
// files the go command builds (a file excluded by a build constraint does
// not count), joined with the stats lines by directory.
func TestPackageRows(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n\ngo 1.21\n")
	write("a.go", "package m\n")
	write("a_test.go", "package m\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n")
	write("x_test.go", "package m_test\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n")
	write("never_test.go", "//go:build never\n\npackage m\n\nimport \"testing\"\n\nfunc TestNever(t *testing.T) {}\n")
	write("sub/b.go", "package sub\n")
	write("sub/b_test.go", "package sub\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) {}\n")
	stats := []pecan.Stats{{Package: "example.com/m", Dir: dir, Dynamic: true, TestsListed: 2, TestsChecked: 2}}
	rows := packageRows(context.Background(), dir, stats, nil, 0)
	if len(rows) != 2 {
		t.Fatalf("rows = %+v", rows)
	}
	if r := rows[0]; r.path != "example.com/m" || r.tests != 2 || r.checked != 2 || r.status != "checked" {
		t.Errorf("row = %+v, want 2 tests, both checked", r)
	}
	if r := rows[1]; r.path != "example.com/m/sub" || r.tests != 1 || r.status != "skipped" {
		t.Errorf("row = %+v, want 1 test, skipped (never reached)", r)
	}
}

// TestCandidatesSection: check -json -candidates lines are counted per
// subject and status, the buggy subjects apart from the fixed twins.
func TestCandidatesSection(t *testing.T) {
	out := []byte(`{"kind":"race","package":"subjects/ledger"}
{"candidate":{"package":"subjects/ledger","pattern":"av/RWW","status":"confirmed"}}
{"candidate":{"package":"subjects/ledger","pattern":"race/WW","status":"pruned"}}
{"candidate":{"package":"subjects/ledger","pattern":"race/WR","status":"pruned"}}
{"candidate":{"package":"subjects/jigsaw","pattern":"av/RWR","status":"not reached"}}
{"candidate":{"package":"subjects/ledgerfixed","pattern":"av/RWW","status":"not driven"}}
{"kind":"av","package":"subjects/ledgerfixed"}
not json
`)
	by := parseCandidates(out)
	if by["ledger"]["confirmed"] != 1 || by["ledger"]["pruned"] != 2 || by["jigsaw"]["not reached"] != 1 || by["ledgerfixed"]["not driven"] != 1 ||
		by["ledger"][candReports] != 1 || by["ledgerfixed"][candReports] != 1 {
		t.Fatalf("counts %v", by)
	}
	text := renderCandidates(by, 10*time.Second, 13*time.Second, 3, nil)
	for _, want := range []string{
		"| buggy | 1 | 2 | 1 | 0 | 3.0 |",
		"| fixed twins | 0 | 0 | 0 | 1 | – |",
		"| all | 1 | 2 | 1 | 1 | 4.0 |",
		"**13.0 s against 10.0 s, 1.30x**",
		"| ledgerfixed | 0 | 0 | 0 | 1 |",
		"on the buggy subjects **3 unconfirmed / 1 confirmed = 3.00** unconfirmed per confirmed candidate (target at most 1: NOT met); on the fixed twins **1 reports** (target 0: NOT met)",
		"most over first: jigsaw 1/0, ledger 2/1.",
		"Fixed twins that report (reports): ledgerfixed (1).",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("section lacks %q:\n%s", want, text)
		}
	}
}

// TestSkipClass: the skip lines the drivers print (static/driver's
// pecanvetDrive) count by reason, not by the methods they name.
func TestSkipClass(t *testing.T) {
	c := countDrivers([]pecan.Stats{{DriverSkips: []string{
		"calling Get and Put of Cache one after the other panics (runtime error: invalid memory address or nil pointer dereference): no usable receiver",
		"calling Put and Put of Cache one after the other panics (assignment to entry in nil map): no usable receiver",
		"calling Push and Push one after the other panics (runtime error: invalid memory address or nil pointer dereference): no usable receiver: no test or example constructs blockingBuffer; the driver's receiver is its zero value",
		"calling Run and Stop of Cron one after the other does not return within 2s: it waits for another call",
		"it skipped: needs network",
		"calling CreationTime and Release one after the other panics in one order (tried to access resource that is not acquired or hijacked), not in the other: the calls are valid in one order only",
		"calling Release and ReleaseUnused one after the other panics in both orders (tried to release resource that is not acquired), each alone not: the calls exclude each other",
	}}})
	if got, want := c.why(), ": 2 no usable receiver (the calls panic one after the other), 1 no usable receiver, and no test constructs the type (the calls panic one after the other), 1 the calls are valid in one order only (the other panics), 1 the calls exclude each other (each panics after the other), 1 the calls one after the other do not return, 1 the code it calls skipped"; got != want {
		t.Errorf("why:\n got %q\nwant %q", got, want)
	}
}

// TestTestPackage: the goleak baseline's TestMain goes in the package of
// a directory's in-package tests, or of its external tests' package
// under test, and nowhere without tests.
func TestTestPackage(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := testPackage(dir); got != "" {
		t.Errorf("empty dir: %q", got)
	}
	write("x_test.go", "// doc\npackage kern_test\n")
	if got := testPackage(dir); got != "kern" {
		t.Errorf("external tests only: %q, want kern", got)
	}
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "a.go"), []byte("package kern\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := testPackage(other); got != "" {
		t.Errorf("no tests: %q, want none", got)
	}
	if got := leakFailure("goleak: Errors on successful test run: found unexpected goroutines:\n"); got != "leak" {
		t.Errorf("leakFailure = %q, want leak", got)
	}
	if got := leakFailure("ok\n"); got != "" {
		t.Errorf("leakFailure(ok) = %q", got)
	}
}

// TestReadModulesTags: a list line may name the build tags a module's
// tests need, which reach every go command through GOFLAGS, and -short,
// which both timed runs take; any other field after module@version is an
// error.
func TestReadModulesTags(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.txt")
	os.WriteFile(good, []byte("# c\nexample.com/a@v1.0.0 -tags=testing,x  # why a\nexample.com/b@v2.0.0  # why b\nexample.com/c@v1.0.0 -short -tags=y\n"), 0o644)
	mods, err := readModules(good)
	if err != nil {
		t.Fatal(err)
	}
	if len(mods) != 3 || mods[0].Tags != "testing,x" || mods[0].Why != "why a" || mods[0].String() != "example.com/a@v1.0.0" || mods[1].Tags != "" || mods[0].Short || !mods[2].Short || mods[2].Tags != "y" {
		t.Fatalf("readModules = %+v", mods)
	}
	if got := strings.Join(mods[2].raceArgs(), " "); got != "test -race -count=1 -short ./..." {
		t.Errorf("raceArgs with -short = %q", got)
	}
	if got := strings.Join(mods[0].raceArgs(), " "); got != "test -race -count=1 ./..." {
		t.Errorf("raceArgs = %q", got)
	}
	if env := mods[0].env(); len(env) != 1 || env[0] != "GOFLAGS=-tags=testing,x" {
		t.Errorf("env = %q", env)
	}
	if env := mods[1].env(); env != nil {
		t.Errorf("env without tags = %q", env)
	}
	for _, line := range []string{"example.com/a@v1 -race", "example.com/a@v1 -tags=", "example.com/a@v1 -tags=x -tags=y", "example.com/a -tags=x", "example.com/a@v1 -short -short", "example.com/a@v1 -short=false"} {
		bad := filepath.Join(dir, "bad.txt")
		os.WriteFile(bad, []byte(line+"\n"), 0o644)
		if _, err := readModules(bad); err == nil {
			t.Errorf("readModules(%q) gave no error", line)
		}
	}
}

// TestKeepVet: -keep keeps a module's whole go vet output and stats file
// (the section cuts notes at 40); without -keep nothing is written.
func TestKeepVet(t *testing.T) {
	dir := t.TempDir()
	stats := filepath.Join(dir, "s.jsonl")
	os.WriteFile(stats, []byte("{}\n"), 0o644)
	vet := &run{Stdout: []byte(`{"p":{}}`), Stderr: []byte("pecanvet: a note\n")}
	if err := (&config{}).keepVet("m_v1", vet, stats); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(dir, "keep")
	if err := (&config{keep: keep}).keepVet("m_v1", vet, stats); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"m_v1.vet.json": `{"p":{}}`, "m_v1.vet.stderr": "pecanvet: a note\n", "m_v1.stats.jsonl": "{}\n"} {
		if b, err := os.ReadFile(filepath.Join(keep, name)); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", name, b, err, want)
		}
	}
	if es, _ := os.ReadDir(dir); len(es) != 2 {
		t.Errorf("%d entries in %s, want s.jsonl and keep (nothing written without -keep)", len(es), dir)
	}
}
