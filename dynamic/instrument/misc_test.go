package instrument

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"go/ast"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic"
	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// TestTypeErrors checks that a package that does not type-check is an
// error carrying the type checker's messages, and that nothing is written.
func TestTypeErrors(t *testing.T) {
	// A temp dir of its own: other tests (and other pecanvet runs) create
	// and remove pecanvet-instr-* dirs in the shared one meanwhile.
	t.Setenv("TMPDIR", t.TempDir())
	before, _ := filepath.Glob(filepath.Join(os.TempDir(), "pecanvet-instr-*"))
	dir, _ := filepath.Abs(filepath.Join("testdata", "broken"))
	res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}})
	if err == nil {
		res.Cleanup()
		t.Fatal("no error for a package that does not type-check")
	}
	var le *LoadError
	if !errors.As(err, &le) {
		t.Fatalf("error %T: %v", err, err)
	}
	msg := err.Error()
	for _, want := range []string{
		"bad.go:3:13: cannot use \"not an int\" (untyped string constant) as int value in variable declaration",
		"bad.go:5:12: undefined: undefined",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	after, _ := filepath.Glob(filepath.Join(os.TempDir(), "pecanvet-instr-*"))
	if len(after) > len(before) {
		t.Errorf("temp dirs were left behind: %v", after)
	}
}

// TestCgo checks that in a cgo package the plain Go files are instrumented
// while the cgo file is copied, with a note saying so, and that the
// package builds and records.
func TestCgo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a cgo test binary")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no C compiler")
	}
	dir, _ := filepath.Abs(filepath.Join("testdata", "cgodemo"))
	res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Cleanup()
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0].String(), "cgo file c.go: Go code instrumented, C code not") {
		t.Errorf("notes: %q", res.Notes)
	}
	if len(res.Packages) != 1 || !res.Packages[0].Tests || len(res.Packages[0].Files) != 3 {
		t.Errorf("packages: %+v", res.Packages)
	}
	traceFile := filepath.Join(res.Dir, "cgo.trace")
	cmd := exec.Command("go", "test", "-count=1", "-vet=off", "-overlay="+res.Overlay, "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PECANVET_TRACE="+traceFile)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	tr, err := trace.ReadFile(traceFile, trace.ReadOptions{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	// Every test goroutine is forked by the main goroutine and joined
	// (rt.TestStart): the forks of go statements are the others.
	var locks, writes, forks int
	for _, e := range tr.Events {
		switch e.Op {
		case trace.Lock:
			locks++
		case trace.Fork:
			forks++
		case trace.Join:
			forks--
		case trace.Write:
			// The end of the test writes its T (rt.TestEnd): not cg's.
			if strings.HasPrefix(tr.Site(e), "cg/") && !strings.HasPrefix(tr.ObjName(e), "testing.T#") {
				writes++
			}
		}
	}
	if locks != 1 || writes != 2 || forks != 1 {
		t.Errorf("%d locks, %d writes, %d forks:\n%v", locks, writes, forks, tr.Events)
	}
}

// TestRuntimeFiles checks the embedded runtime source.
func TestRuntimeFiles(t *testing.T) {
	files, err := dynamic.RuntimeFiles()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"rt/doc.go", "trace/event.go"} {
		if _, ok := files[want]; !ok {
			t.Errorf("no %s among %d files", want, len(files))
		}
	}
	for name := range files {
		dir, base := path.Split(name)
		if dir != "rt/" && dir != "trace/" || strings.HasSuffix(base, "_test.go") ||
			!strings.HasSuffix(base, ".go") && !strings.HasSuffix(base, ".s") {
			t.Errorf("unexpected runtime file %s", name)
		}
	}
	api, err := parseRuntimeAPI(files)
	if err != nil {
		t.Fatal(err)
	}
	for _, fn := range []string{"R", "W", "Lock", "Unlock", "Send", "Recv", "Go", "Begin", "End", "RegionBegin", "Finish", "Exit"} {
		if !api.has(fn) {
			t.Errorf("the runtime lacks %s", fn)
		}
	}
}

// TestFallback checks that a statement whose rewrite does not type-check
// is left as it was, with a note, and the rest still instrumented.
func TestFallback(t *testing.T) {
	testBreakStmt = func(fset *token.FileSet, s ast.Stmt) bool {
		p := fset.Position(s.Pos())
		return strings.HasSuffix(p.Filename, "counter.go") && p.Line == 27 // c.n++ in Inc
	}
	defer func() { testBreakStmt = nil }()
	dir, _ := filepath.Abs(filepath.Join("testdata", "tricky"))
	res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./counter"}})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Cleanup()
	t.Log(res.Notes)
	if len(res.Notes) == 0 || !strings.Contains(res.Notes[0].String(), "counter.go:27") {
		t.Errorf("notes: %q", res.Notes)
	}
	var at27, others int
	for _, s := range res.Sites {
		if strings.HasPrefix(s.Pos, "counter/counter.go:27:") {
			at27++
		} else if strings.HasPrefix(s.Pos, "counter/counter.go:") {
			others++
		}
	}
	if at27 != 0 || others == 0 {
		t.Errorf("%d sites on the broken line, %d elsewhere", at27, others)
	}
}

// TestDrainInserted: every test function of the corpus defers rt.Drain
// first (on the line of its opening brace, so line numbers stay), and
// nothing else does.
func TestDrainInserted(t *testing.T) {
	setupCorpus(t)
	ov, err := os.ReadFile(corpus.res.Overlay)
	if err != nil {
		t.Fatal(err)
	}
	var o struct{ Replace map[string]string }
	if err := json.Unmarshal(ov, &o); err != nil {
		t.Fatal(err)
	}
	testFunc := regexp.MustCompile(`^func (Test[A-Z]\w*)\(t \*testing\.T\) \{`)
	checked := 0
	for orig, repl := range o.Replace {
		if filepath.Base(filepath.Dir(orig)) != "counter" || !strings.HasSuffix(orig, ".go") {
			continue
		}
		b, err := os.ReadFile(repl)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(b), "\n") {
			drain := strings.Contains(l, "defer "+rtName+".Drain()") || strings.Contains(l, rtName+".TestStart(") || strings.Contains(l, rtName+".Test(")
			switch m := testFunc.FindStringSubmatch(l); {
			case m != nil && strings.HasSuffix(orig, "_test.go"):
				checked++
				if !strings.HasPrefix(l, m[0]+" defer "+rtName+".Test(t, ") {
					t.Errorf("%s:%d: test function without rt.Test first: %s", filepath.Base(orig), i+1, l)
				}
			case drain:
				t.Errorf("%s:%d: Drain outside a test function: %s", filepath.Base(orig), i+1, l)
			}
		}
	}
	if checked < 3 {
		t.Errorf("only %d test functions found in the counter corpus", checked)
	}
}

// rewrittenCorpusFile returns the rewritten text of the corpus file
// named base.
func rewrittenCorpusFile(t *testing.T, base string) string {
	t.Helper()
	setupCorpus(t)
	b, err := os.ReadFile(corpus.res.Overlay)
	if err != nil {
		t.Fatal(err)
	}
	var ov struct{ Replace map[string]string }
	if err := json.Unmarshal(b, &ov); err != nil {
		t.Fatal(err)
	}
	for orig, rewritten := range ov.Replace {
		if filepath.Base(orig) == base {
			b, err := os.ReadFile(rewritten)
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
	}
	t.Fatalf("%s not in the overlay", base)
	return ""
}

// TestSleepRewritten checks that time.Sleep, called or taken as a value,
// becomes rt.Sleep (replay's virtual time).
func TestSleepRewritten(t *testing.T) {
	// The import stays used by a reference the rewrite adds.
	src := strings.ReplaceAll(rewrittenCorpusFile(t, "syntax_test.go"), "var _ = time.Sleep // calls became runtime calls", "")
	// The call is an event (SleepAt), the value is not (no SSA position).
	if n := strings.Count(src, rtName+".Sleep"); n != 2 || strings.Count(src, rtName+".SleepAt(") != 1 || strings.Contains(src, "time.Sleep") {
		i := strings.Index(src, "time.Sleep")
		t.Errorf("%d calls of %s.Sleep; time.Sleep left at %d: %.80q", n, rtName, i, src[max(i-40, 0):])
	}
}

// TestClockRewritten checks that the clock's functions and the timers'
// methods become rt's (replay's virtual clock), and that the corpus's
// TestTimers passes with them (TestCorpusSameResults).
func TestClockRewritten(t *testing.T) {
	src := rewrittenCorpusFile(t, "syntax_test.go")
	for _, want := range []string{".NewTimer(", ".TimerStop(tm)", ".TimerReset(tm)", ".NewTicker(", ".TickerStop(tk)", ".TickerReset(tk)", ".TickerStop(holder.Ticker)", ".After(", ".Tick(", ".Until(", ".Now()", ".WithTimeout(", ".WithDeadline("} {
		if !strings.Contains(src, rtName+want) {
			t.Errorf("no %s%s in the rewritten file", rtName, want)
		}
	}
	for _, bad := range []string{"time.NewTimer(", "time.Now()", "tm.Stop", "tk.Reset(", "holder.Stop()", "context.WithTimeout("} {
		if strings.Contains(src, bad) {
			t.Errorf("%s left in the rewritten file", bad)
		}
	}
}

// TestRuntimeCacheStable checks that two instrumentations of the same
// package use the same cached runtime directory, with no temp path in its
// files: a runtime whose content changes with each run would be written
// anew and compiled again by every build (seconds each, and a cache that
// grows without end).
func TestRuntimeCacheStable(t *testing.T) {
	t.Setenv("PECANVET_CACHE", t.TempDir())
	dir, _ := filepath.Abs(filepath.Join("testdata", "tricky"))
	var dirs []string
	for range 2 {
		res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}})
		if err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, res.RuntimeDir)
		res.Cleanup()
	}
	if dirs[0] != dirs[1] {
		t.Fatalf("runtime directories differ: %s, %s", dirs[0], dirs[1])
	}
	err := filepath.WalkDir(dirs[0], func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err == nil && bytes.Contains(b, []byte(os.TempDir()+string(filepath.Separator)+"pecanvet-")) {
			t.Errorf("%s names a temp dir", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestModuleDeps: the main module's packages that the checked package
// imports, directly or not, are instrumented too, without their tests;
// packages of other modules and the checked package's own are not deps.
func TestModuleDeps(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":                  "module example.com/m\n\ngo 1.22\n",
		"spawn/spawn.go":          "package spawn\n\nimport \"example.com/m/internal/guard\"\n\n// Go runs f in a goroutine of its own, under guard's lock.\nfunc Go(f func()) { go guard.Do(f) }\n",
		"spawn/s_test.go":         "package spawn\n\nimport \"testing\"\n\nfunc TestGo(t *testing.T) { done := make(chan bool); Go(func() { done <- true }); <-done }\n",
		"internal/guard/guard.go": "package guard\n\nimport \"sync\"\n\nvar mu sync.Mutex\n\n// Do runs f holding the lock.\nfunc Do(f func()) { mu.Lock(); defer mu.Unlock(); f() }\n\n// N counts.\ntype N struct{ n int }\n\n// Inc counts one.\nfunc (c *N) Inc() { c.n++ }\n",
		"unused/unused.go":        "package unused\n\nvar X int\n",
		"job/job.go":              "package job\n\nimport \"example.com/m/spawn\"\n\n// Run runs f in the background and waits for it.\nfunc Run(f func()) { done := make(chan bool); spawn.Go(func() { f(); done <- true }); <-done }\n\n// J counts.\ntype J struct{ n int }\n\n// Inc counts one.\nfunc (j *J) Inc() { j.n++ }\n",
		"job/job_test.go":         "package job\n\nimport \"testing\"\n\nfunc TestRun(t *testing.T) { n := 0; Run(func() { n++ }); if n != 1 { t.Fatal(n) } }\n",
	} {
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(src)); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./job"}})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Cleanup()
	if got, want := strings.Join(res.Deps, " "), "example.com/m/internal/guard example.com/m/spawn"; got != want {
		t.Errorf("deps %q, want %q", got, want)
	}
	if len(res.Packages) != 1 || res.Packages[0].ImportPath != "example.com/m/job" {
		t.Errorf("packages %+v, want job alone", res.Packages)
	}
	ov := overlayOf(t, res)
	for _, f := range []string{"spawn/spawn.go", "internal/guard/guard.go", "job/job.go", "job/job_test.go"} {
		if _, ok := ov.Replace[filepath.Join(dir, filepath.FromSlash(f))]; !ok {
			t.Errorf("%s not instrumented", f)
		}
	}
	if _, ok := ov.Replace[filepath.Join(dir, "spawn", "s_test.go")]; ok {
		t.Errorf("a dep's test file is instrumented")
	}
	// A dep of the module records its plain accesses too (rt.Sites(false,
	// ...), not rt.RegisterNextQuiet): the checked package's goroutines
	// that call into it race there (transport-go's bus and log). Its
	// methods are no units of work.
	for f, quiet := range map[string]string{"internal/guard/guard.go": "false", "spawn/spawn.go": "false", "job/job.go": "false"} {
		b, err := os.ReadFile(ov.Replace[filepath.Join(dir, filepath.FromSlash(f))])
		if want := regexp.MustCompile(regexp.QuoteMeta(rtName+".Sites(") + quiet + `, "`); err != nil || !want.Match(b) {
			t.Errorf("%s does not call %s (%v)", f, want, err)
		}
		if unit := strings.Contains(string(b), ".RegionBegin("); unit != (f == "job/job.go") {
			t.Errorf("%s: a unit of work for its method: %v", f, unit)
		}

	}
	cmd := exec.Command("go", "test", "-c", "-vet=off", "-overlay="+res.Overlay, "-o", filepath.Join(t.TempDir(), "job.test"), "./job")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the instrumented build fails: %v\n%s", err, out)
	}
}

// TestDepAtomicLoud: the plain accesses of a dep of another module
// (instrumented because its go statement runs the caller's function) are
// quiet, but those of a field or package variable that the dep itself
// passes to sync/atomic are loud (rt.Sites: a line starting with a tab),
// so that a plain read racing with the dep's atomic updates is recorded
// whichever package's tests run it (go-timer's scheduler counters, when
// its helper package was quiet). A field only accessed plainly, one only
// through atomic types, and a local stay quiet.
func TestDepAtomicLoud(t *testing.T) {
	t.Setenv("PECANVET_CACHE", t.TempDir())
	proxyModule(t, "example.com/stats", "v1.0.0", map[string]string{
		"go.mod":         "module example.com/stats\n\ngo 1.22\n",
		"stats/stats.go": "package stats\n\nimport \"sync/atomic\"\n\nvar hits int64\n\n// C counts.\ntype C struct {\n\tn, m int64\n\tk atomic.Int64\n}\n\n// Inc counts one.\nfunc (c *C) Inc() { atomic.AddInt64(&c.n, 1); atomic.AddInt64(&hits, 1); c.k.Add(1) }\n\n// Get reads plainly.\nfunc (c *C) Get() int64 { l := int64(0); atomic.AddInt64(&l, 1); c.m++; return c.n + hits + c.m + l }\n\n// Go runs f in a goroutine.\nfunc Go(f func()) { go f() }\n",
	})
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":          "module example.com/m\n\ngo 1.22\n\nrequire example.com/stats v1.0.0\n",
		"app/app.go":      "package app\n\nimport \"example.com/stats/stats\"\n\n// Run counts.\nfunc Run(c *stats.C) int64 { stats.Go(c.Inc); return c.Get() }\n",
		"app/app_test.go": "package app\n\nimport (\n\t\"testing\"\n\n\t\"example.com/stats/stats\"\n)\n\nfunc TestRun(t *testing.T) { Run(&stats.C{}) }\n",
	} {
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(src)); err != nil {
			t.Fatal(err)
		}
	}
	dl := exec.Command("go", "mod", "download", "example.com/stats")
	dl.Dir = dir
	if out, err := dl.CombinedOutput(); err != nil {
		t.Fatalf("go mod download: %v\n%s", err, out)
	}
	res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./app"}})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Cleanup()
	if got, want := strings.Join(res.Deps, " "), "example.com/stats/stats"; got != want {
		t.Fatalf("deps %q, want %q", got, want)
	}
	gomod, err := os.ReadFile(overlayOf(t, res).Replace[filepath.Join(dir, "go.mod")])
	if err != nil {
		t.Fatal(err)
	}
	var copyDir string
	for _, l := range strings.Split(string(gomod), "\n") {
		if rest, ok := strings.CutPrefix(l, "replace example.com/stats => "); ok {
			copyDir = strings.Trim(rest, `"`)
		}
	}
	b, err := os.ReadFile(filepath.Join(copyDir, "stats", "stats.go"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(regexp.QuoteMeta(rtName+".Sites(true, ") + `("(?:[^"\\]|\\.)*")\)`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("no quiet site table in stats.go:\n%s", b)
	}
	table, err := strconv.Unquote(string(m[1]))
	if err != nil {
		t.Fatal(err)
	}
	loud := map[string]bool{}
	for _, line := range strings.Split(table, "\n")[1:] {
		if obj, ok := strings.CutPrefix(line, "\t"); ok {
			_, obj, _ = strings.Cut(obj, "\t")
			loud[obj] = true
		}
	}
	for obj, want := range map[string]bool{"C.n": true, "stats.hits": true, "C.m": false, "C.k": false, "C.Get.l": false} {
		if loud[obj] != want {
			t.Errorf("%s loud: %v, want %v (table %q)", obj, loud[obj], want, table)
		}
	}
}

// TestExtraFiles: a generated driver file joins its package's internal
// test variant (or the package, when it has no tests), importing packages
// the variant does not; the external tests, which import the variant, are
// instrumented as they were type-checked; and the build compiles.
func TestExtraFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir := t.TempDir()
	driver := "package %s\n\nimport (\n\t\"fmt\"\n\t\"testing\"\n\t\"time\"\n)\n\nfunc TestPecanvetDriver_X(t *testing.T) {\n\tc := &counter{}\n\tdone := make(chan bool)\n\tgo func() { c.inc(); done <- true }()\n\tc.inc()\n\tselect {\n\tcase <-done:\n\tcase <-time.After(time.Second):\n\t}\n\t_ = fmt.Sprint(c.n)\n}\n"
	for name, src := range map[string]string{
		"go.mod":        "module example.com/m\n\ngo 1.22\n",
		"a/a.go":        "package a\n\ntype counter struct{ n int }\n\nfunc (c *counter) inc() { c.n++ }\n\n// Inc counts.\nfunc Inc() int { c := &counter{}; c.inc(); return c.n }\n",
		"a/a_test.go":   "package a\n\nimport \"testing\"\n\nfunc TestInc(t *testing.T) { (&counter{}).inc() }\n",
		"a/a_x_test.go": "package a_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/m/a\"\n)\n\nfunc TestIncX(t *testing.T) { a.Inc() }\n",
		"b/b.go":        "package b\n\ntype counter struct{ n int }\n\nfunc (c *counter) inc() { c.n++ }\n",
	} {
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(src)); err != nil {
			t.Fatal(err)
		}
	}
	extra := map[string][]byte{
		filepath.Join(dir, "a", "zz_pecanvet_driver_test.go"): []byte(strings.ReplaceAll(driver, "%s", "a")),
		filepath.Join(dir, "b", "zz_pecanvet_driver_test.go"): []byte(strings.ReplaceAll(driver, "%s", "b")),
	}
	res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}, Extra: extra})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Cleanup()
	if len(res.Notes) > 0 {
		t.Errorf("notes: %q", res.Notes)
	}
	ov := overlayOf(t, res)
	for f := range extra {
		if _, ok := ov.Replace[f]; !ok {
			t.Errorf("%s not in the overlay", f)
		}
	}
	cmd := exec.Command("go", "test", "-vet=off", "-count=1", "-overlay="+res.Overlay, "./...")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "ok  \texample.com/m/b") {
		t.Fatalf("the instrumented tests: %v\n%s", err, out)
	}
}

// overlayOf reads the overlay of an instrumentation.
// TestDepFilesSameForEveryRoot: a module package that two checked
// packages import is rewritten to the same text in both checks, although
// one of them instruments another package (c) before it, so the go
// command's build cache compiles it once for both; and both instrumented
// test binaries run, their sites numbered by the runtime.
func TestDepFilesSameForEveryRoot(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":      "module example.com/m\n\ngo 1.22\n",
		"c/c.go":      "package c\n\nimport \"sync\"\n\nvar mu sync.Mutex\n\n// C runs f in a goroutine, holding the lock while it starts it.\nfunc C(f func()) { mu.Lock(); defer mu.Unlock(); go f() }\n",
		"d/d.go":      "package d\n\nimport \"sync\"\n\nvar (\n\tmu sync.Mutex\n\tn  int\n)\n\n// D counts one.\nfunc D() int { mu.Lock(); defer mu.Unlock(); n++; return n }\n",
		"d/go.go":     "package d\n\n// Go runs f in a goroutine and waits for it.\nfunc Go(f func()) { done := make(chan bool); go func() { f(); done <- true }(); <-done }\n",
		"a/a.go":      "package a\n\nimport \"example.com/m/d\"\n\n// A counts in the background.\nfunc A() { d.Go(func() { d.D() }) }\n",
		"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) { A(); A() }\n",
		"b/b.go":      "package b\n\nimport (\n\t\"example.com/m/c\"\n\t\"example.com/m/d\"\n)\n\n// B counts twice in the background.\nfunc B() { done := make(chan bool); c.C(func() { d.Go(func() { d.D() }); done <- true }); <-done }\n",
		"b/b_test.go": "package b\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) { B() }\n",
	} {
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(src)); err != nil {
			t.Fatal(err)
		}
	}
	texts := make([]map[string]string, 2)
	for i, root := range []string{"a", "b"} {
		res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./" + root}})
		if err != nil {
			t.Fatal(err)
		}
		defer res.Cleanup()
		texts[i] = map[string]string{}
		for orig, name := range overlayOf(t, res).Replace {
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			texts[i][orig] = string(b)
		}
		bin := filepath.Join(t.TempDir(), root+".test")
		cmd := exec.Command("go", "test", "-c", "-vet=off", "-overlay="+res.Overlay, "-o", bin, "./"+root)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("the instrumented build of %s fails: %v\n%s", root, err, out)
		}
		tr := filepath.Join(t.TempDir(), "trace.bin")
		cmd = exec.Command(bin)
		cmd.Dir = filepath.Join(dir, root)
		cmd.Env = append(os.Environ(), "PECANVET_TRACE="+tr)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("the instrumented test of %s fails: %v\n%s", root, err, out)
		}
		if fi, err := os.Stat(tr); err != nil || fi.Size() == 0 {
			t.Errorf("%s: no trace (%v)", root, err)
		}
	}
	if _, ok := texts[1][filepath.Join(dir, "c", "c.go")]; !ok {
		t.Fatal("c is not instrumented in b's check: the test does not test the order")
	}
	for _, f := range []string{"d/d.go", "d/go.go"} {
		name := filepath.Join(dir, filepath.FromSlash(f))
		a, b := texts[0][name], texts[1][name]
		if a == "" || b == "" {
			t.Errorf("%s not instrumented in both checks", f)
		} else if a != b {
			t.Errorf("%s is rewritten differently in a's check and in b's:\n%s\n----\n%s", f, a, b)
		}
	}
}

func overlayOf(t *testing.T, res *Result) (ov struct{ Replace map[string]string }) {
	t.Helper()
	b, err := os.ReadFile(res.Overlay)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &ov); err != nil {
		t.Fatal(err)
	}
	return ov
}

// TestRangeGates checks that every receive of a range loop over a channel
// is gated before the loop's head performs it: before the loop, at the
// end of its body and at each continue of it (RangeSkip has two), and
// that the receives are recorded without a second gate.
func TestRangeGates(t *testing.T) {
	src := rewrittenCorpusFile(t, "syntax.go")
	i := strings.Index(src, "func RangeSkip(")
	if i < 0 {
		t.Fatal("no RangeSkip in the rewritten file")
	}
	fn := src[i:]
	if j := strings.Index(fn, "\nfunc "); j > 0 {
		fn = fn[:j]
	}
	if n := strings.Count(fn, rtName+".RangeGate("); n != 4 {
		t.Errorf("%d gates in RangeSkip, want 4 (before the loop, two continues, the body's end):\n%s", n, fn)
	}
	if n := strings.Count(fn, rtName+".RangeRecv("); n != 2 || strings.Contains(fn, rtName+".Received(") {
		t.Errorf("%d RangeRecv in RangeSkip, want 2 (and no Received):\n%s", n, fn)
	}
	for _, cont := range []string{"; continue }", "; continue outer }"} {
		if !strings.Contains(fn, cont) {
			t.Errorf("no gated %q in RangeSkip:\n%s", cont, fn)
		}
	}
}

// TestDriverQuietRewritten: the generated driver's pecanvetQuiet stub gets
// the runtime's DriverQuiet as its body, passing its own parameters, and
// its pecanvetReplaying stub the runtime's DriverReplaying.
func TestDriverQuietRewritten(t *testing.T) {
	src := rewrittenCorpusFile(t, "zz_pecanvet_driver_test.go")
	want := "func pecanvetQuiet(end time.Time, done chan struct{}) <-chan struct{} { return " + rtName + ".DriverQuiet(end, done) }"
	if !strings.Contains(src, want) {
		t.Errorf("the stub was not rewritten; want %q in\n%s", want, src)
	}
	want = "func pecanvetReplaying() bool { return " + rtName + ".DriverReplaying() }"
	if !strings.Contains(src, want) {
		t.Errorf("the stub was not rewritten; want %q in\n%s", want, src)
	}
}

// TestSelectDefaultCase: a select with a default passes it to SelectGate
// (rt's parkPartner waits for the partner of its unbuffered case only
// then); SelectLoop's first select has none, its second one.
func TestSelectDefaultCase(t *testing.T) {
	src := rewrittenCorpusFile(t, "syntax.go")
	i := strings.Index(src, "func SelectLoop(")
	if i < 0 {
		t.Fatal("no SelectLoop in the rewritten file")
	}
	fn := src[i:]
	if j := strings.Index(fn, "\nfunc "); j > 0 {
		fn = fn[:j]
	}
	if n := strings.Count(fn, rtName+".SelectGate("); n != 2 {
		t.Fatalf("%d SelectGate calls in SelectLoop, want 2:\n%s", n, fn)
	}
	if n := strings.Count(fn, rtName+".SelCase{Site: -1, Default: true}"); n != 1 {
		t.Errorf("%d default cases in SelectLoop's gates, want 1 (its second select's):\n%s", n, fn)
	}
}

// TestSiteTable checks the encoding of a file's sites that rt.Sites
// decodes (rt's TestSites decodes this same table), and that what it
// cannot carry falls back to the composite literal.
func TestSiteTable(t *testing.T) {
	sites := []Site{
		{Pos: "dir/a.go:3:7", Obj: "T.f"},
		{Pos: "dir/a.go:12:1", Obj: "chan struct{a int \"x\\ty\"}"},
		{Pos: "other/b.go:1:2", Obj: "tab\there"},
		{Pos: "dir/a.go.go:5:5", Obj: ""},
	}
	got, ok := siteTable(sites, nil)
	want := "dir/a.go\n:3:7\tT.f\n:12:1\tchan struct{a int \"x\\ty\"}\nother/b.go:1:2\ttab\there\ndir/a.go.go:5:5\t\n"
	if !ok || got != want {
		t.Errorf("siteTable = %q, %v; want %q", got, ok, want)
	}
	// A loud site's line starts with a tab (rt.Sites: recorded in a quiet
	// file); an empty Pos would read as one.
	got, ok = siteTable(sites, func(s Site) bool { return s.Obj == "T.f" || s.Obj == "" })
	want = "dir/a.go\n\t:3:7\tT.f\n:12:1\tchan struct{a int \"x\\ty\"}\nother/b.go:1:2\ttab\there\n\tdir/a.go.go:5:5\t\n"
	if !ok || got != want {
		t.Errorf("siteTable with loud sites = %q, %v; want %q", got, ok, want)
	}
	if got, ok := siteTable([]Site{{Pos: "", Obj: "x"}}, nil); ok {
		t.Errorf("siteTable of an empty Pos = %q, true; want false", got)
	}
	if got, ok := siteTable(nil, nil); !ok || got != "\n" {
		t.Errorf("siteTable(nil) = %q, %v; want \"\\n\"", got, ok)
	}
	for _, bad := range [][]Site{
		{{Pos: "a.go:1:1", Obj: "x\ny"}},
		{{Pos: "a.go:1:1", Obj: "x"}, {Pos: "b\t.go:1:1", Obj: "y"}},
		{{Pos: "a.go:1:1", Obj: "x"}, {Pos: ":b.go:1:1", Obj: "y"}},
	} {
		if got, ok := siteTable(bad, nil); ok {
			t.Errorf("siteTable(%q) = %q, true; want false", bad, got)
		}
	}
}
