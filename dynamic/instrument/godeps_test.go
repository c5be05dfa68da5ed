package instrument

import (
	"archive/zip"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// proxyModule serves the module path@version with files from a file
// proxy, through a module cache of the test's own (GOPROXY, GOMODCACHE).
func proxyModule(t *testing.T, path, version string, files map[string]string) {
	t.Helper()
	proxy := t.TempDir()
	v := filepath.Join(proxy, filepath.FromSlash(path), "@v")
	meta := map[string]string{
		"list":            version + "\n",
		version + ".info": `{"Version":"` + version + `"}`,
		version + ".mod":  files["go.mod"],
	}
	for name, src := range meta {
		if err := writeFile(filepath.Join(v, name), []byte(src)); err != nil {
			t.Fatal(err)
		}
	}
	zf, err := os.Create(filepath.Join(v, version+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(zf)
	for name, src := range files {
		w, err := zw.Create(path + "@" + version + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(src))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	zf.Close()
	t.Setenv("GOPROXY", "file://"+filepath.ToSlash(proxy))
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOMODCACHE", t.TempDir())
	t.Setenv("GOFLAGS", "-modcacherw") // so that t.TempDir can remove it
}

// TestGoDeps: a package of another module that the checked package
// imports and that has a go statement is instrumented like a module dep
// (moduleDeps' others), quietly, in a copy of its module that the
// overlaid go.mod puts in its place (the go command takes no overlay of
// a file in the module cache), with the go1.21 language tag its go 1.16
// line needs and its sites named module@version/path, one copy for both
// of its packages; a package of it without a go statement, or whose go
// statements run only its own code, is left alone;
// the module cache is not written; the build compiles. Without it the
// goroutine that grp.Go starts was a root of the trace, named by the
// order of its first event.
func TestGoDeps(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	t.Setenv("PECANVET_CACHE", t.TempDir())
	proxyModule(t, "example.com/dep", "v1.0.0", map[string]string{
		"go.mod":         "module example.com/dep\n\ngo 1.16\n",
		"grp/grp.go":     "package grp\n\nimport \"sync\"\n\n// Group runs functions in goroutines.\ntype Group struct{ wg sync.WaitGroup }\n\n// Go runs f in a goroutine.\nfunc (g *Group) Go(f func()) { g.wg.Add(1); go func() { defer g.wg.Done(); f() }() }\n\n// Wait waits for them.\nfunc (g *Group) Wait() { g.wg.Wait() }\n",
		"plain/plain.go": "package plain\n\n// Twice calls f twice.\nfunc Twice(f func()) { f(); f() }\n",
		"bg/bg.go":       "package bg\n\n// Start runs f in a goroutine.\nfunc Start(f func()) { go f() }\n",
		"own/own.go":     "package own\n\n// Start starts a loop of its own.\nfunc Start() { go loop() }\n\nfunc loop() {}\n",
	})
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":      "module example.com/m\n\ngo 1.22\n\nrequire example.com/dep v1.0.0\n",
		"p/p.go":      "package p\n\nimport (\n\t\"example.com/dep/bg\"\n\t\"example.com/dep/grp\"\n\t\"example.com/dep/own\"\n\t\"example.com/dep/plain\"\n\t\"example.com/m/q\"\n)\n\n// Run runs f twice in goroutines.\nfunc Run(f func()) { var g grp.Group; plain.Twice(func() { g.Go(f) }); g.Wait(); bg.Start(func() {}); own.Start(); q.Do(func() {}) }\n",
		"p/p_test.go": "package p\n\nimport \"testing\"\n\nfunc TestRun(t *testing.T) { n := 0; Run(func() { n++ }); _ = n }\n",
		"q/q.go":      "package q\n\nimport \"sync\"\n\nvar mu sync.Mutex\n\n// Do runs f holding mu.\nfunc Do(f func()) { mu.Lock(); defer mu.Unlock(); f() }\n",
	} {
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(src)); err != nil {
			t.Fatal(err)
		}
	}
	dl := exec.Command("go", "mod", "download", "example.com/dep")
	dl.Dir = dir
	if out, err := dl.CombinedOutput(); err != nil {
		t.Fatalf("go mod download: %v\n%s", err, out)
	}
	res, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./p"}})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Cleanup()
	if got, want := strings.Join(res.Deps, " "), "example.com/dep/bg example.com/dep/grp example.com/m/q"; got != want {
		t.Errorf("deps %q, want %q", got, want)
	}
	ov := overlayOf(t, res)
	gomod, err := os.ReadFile(ov.Replace[filepath.Join(dir, "go.mod")])
	if err != nil {
		t.Fatal(err)
	}
	// One replacement for the module, with both packages' files.
	var copyDirs []string
	for _, l := range strings.Split(string(gomod), "\n") {
		if rest, ok := strings.CutPrefix(l, "replace example.com/dep => "); ok {
			copyDirs = append(copyDirs, strings.Trim(rest, `"`))
		}
	}
	if len(copyDirs) != 1 {
		t.Fatalf("the overlaid go.mod does not replace example.com/dep once:\n%s", gomod)
	}
	copyDir := copyDirs[0]
	if b, err := os.ReadFile(filepath.Join(copyDir, "bg", "bg.go")); err != nil || !strings.Contains(string(b), rtName+".Go(") {
		t.Errorf("the copy's bg.go is not instrumented (%v)", err)
	}
	for f := range ov.Replace {
		if strings.HasPrefix(f, os.Getenv("GOMODCACHE")) {
			t.Errorf("the overlay replaces %s, in the module cache", f)
		}
	}
	b, err := os.ReadFile(filepath.Join(copyDir, "grp", "grp.go"))
	if err != nil {
		t.Fatal(err)
	}
	// Its sites are registered quiet (rt.Sites(true, table)), the table
	// starting with the file's module-relative path.
	for _, want := range []string{"//go:build go1.21", rtName + ".Sites(true, ", rtName + ".Go(", `"example.com/dep@v1.0.0/grp/grp.go\n:`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the copy's grp.go lacks %s:\n%s", want, b)
		}
	}
	for _, f := range []string{"plain/plain.go", "own/own.go"} {
		if b, err := os.ReadFile(filepath.Join(copyDir, filepath.FromSlash(f))); err != nil || strings.Contains(string(b), rtName) {
			t.Errorf("%s is rewritten or missing (%v)", f, err)
		}
	}
	orig := filepath.Join(os.Getenv("GOMODCACHE"), "example.com", "dep@v1.0.0", "grp", "grp.go")
	if b, err := os.ReadFile(orig); err != nil || strings.Contains(string(b), rtName) {
		t.Errorf("the module cache's grp.go is changed (%v)", err)
	}
	cmd := exec.Command("go", "test", "-c", "-vet=off", "-overlay="+res.Overlay, "-o", filepath.Join(t.TempDir(), "p.test"), "./p")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the instrumented build fails: %v\n%s", err, out)
	}
	// A change to the module's own dep (more sites) leaves the copy as it
	// was: its packages are not compiled again.
	if err := writeFile(filepath.Join(dir, "q", "q.go"), []byte("package q\n\nimport \"sync\"\n\nvar (\n\tmu sync.Mutex\n\tn  int\n)\n\n// Do runs f holding mu.\nfunc Do(f func()) { mu.Lock(); defer mu.Unlock(); n++; f() }\n")); err != nil {
		t.Fatal(err)
	}
	again, err := Instrument(context.Background(), Options{Dir: dir, Patterns: []string{"./p"}})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Cleanup()
	gomod2, err := os.ReadFile(overlayOf(t, again).Replace[filepath.Join(dir, "go.mod")])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(gomod2), strconv.Quote(copyDir)) {
		t.Errorf("the copy moved when q changed:\n%s\nthen\n%s", gomod, gomod2)
	}
}

// TestRunsCallersFuncs: a package is a dep of another module to
// instrument when one of its go statements runs a function its caller
// passed in, directly, through a closure or as an argument, by a func
// literal type or a func type of its own; not when its goroutines run
// its own code.
func TestRunsCallersFuncs(t *testing.T) {
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"func Go(f func() error) { go func() { _ = f() }() }", true},                                                                 // errgroup
		{"func DoChan(key string, fn func() (int, error)) { go doCall(key, fn) }\nfunc doCall(string, func() (int, error)) {}", true}, // singleflight
		{"type Task func()\nfunc Submit(t Task) { go t() }", true},
		{"func Outer(f func()) { run := func() { go func() { f() }() }; run() }", true},
		{"func Eventually(condition func() bool) { ch := make(chan bool); go func() { ch <- condition() }(); <-ch }", true},
		{"func Eventually(condition func() bool) { ch := make(chan bool, 1); checkCond := func() { ch <- condition() }; go checkCond(); <-ch }", true}, // testify 1.11
		{"func Twice(f func()) { g := func() { f() }; h := func() { g() }; go h() }", true},
		{"func Serve() { go loop() }\nfunc loop() {}", false},
		{"func Local(f func()) { f(); g := func() {}; go g() }", false},
		{"func Work(n int) { go work(n) }\nfunc work(int) {}", false},
		{"func Later(f func()) { f() }\nfunc Start() { go func() {}() }", false}, // the go statement is not inside Later
		{"func Apply(f func()) { f() }", false},
	} {
		name := filepath.Join(t.TempDir(), "p.go")
		if err := os.WriteFile(name, []byte("package p\n\n"+c.src+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := runsCallersFuncs([]string{name}); got != c.want {
			t.Errorf("%s: %v, want %v", c.src, got, c.want)
		}
	}
}
