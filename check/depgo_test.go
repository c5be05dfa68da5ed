package check_test

import (
	"archive/zip"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/pattern"
)

// depGroup is a module of the proxy: an errgroup-like Group, whose Go
// starts f in a goroutine of its own. Its go line (1.16) is older than the
// rewritten code's language.
var depGroup = map[string]string{
	"go.mod": "module example.com/dep\n\ngo 1.16\n",
	"grp/grp.go": `package grp

import "sync"

// Group runs functions in goroutines of their own and waits for them.
type Group struct{ wg sync.WaitGroup }

// Go runs f in a goroutine of its own.
func (g *Group) Go(f func()) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		f()
	}()
}

// Wait waits for the functions Go started.
func (g *Group) Wait() { g.wg.Wait() }
`,
}

// depUser uses depGroup: Double writes each element in a goroutine of
// its own and reads them after Wait (no race); Sum adds into one variable
// from each goroutine (a race).
var depUser = map[string]string{
	"go.mod": "module example.com/m\n\ngo 1.22\n\nrequire example.com/dep v1.0.0\n",
	"p/p.go": `package p

import "example.com/dep/grp"

// Double doubles each element, in a goroutine each.
func Double(xs []int) []int {
	out := make([]int, len(xs))
	var g grp.Group
	for i, x := range xs {
		g.Go(func() { out[i] = 2 * x })
	}
	g.Wait()
	return out
}

// Sum adds the elements up, in a goroutine each.
func Sum(xs []int) int {
	s := 0
	var g grp.Group
	for _, x := range xs {
		g.Go(func() { s += x })
	}
	g.Wait()
	return s
}
`,
	"p/p_test.go": `package p

import "testing"

func TestDouble(t *testing.T) {
	out := Double([]int{1, 2, 3})
	if out[0]+out[1]+out[2] != 12 {
		t.Fatal(out)
	}
}

func TestSum(t *testing.T) {
	if s := Sum([]int{1, 2, 3}); s != 6 {
		t.Fatal(s)
	}
}
`,
}

// moduleFromProxy writes depGroup to a file proxy, and depUser, which
// requires it, to a directory it returns; the go command then takes
// example.com/dep from a module cache of the test's own, as it takes a
// user's dependencies from theirs.
func moduleFromProxy(t *testing.T) string {
	t.Helper()
	proxy := t.TempDir()
	v := filepath.Join(proxy, "example.com", "dep", "@v")
	if err := os.MkdirAll(v, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"list":        "v1.0.0\n",
		"v1.0.0.info": `{"Version":"v1.0.0"}`,
		"v1.0.0.mod":  depGroup["go.mod"],
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(v, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	zf, err := os.Create(filepath.Join(v, "v1.0.0.zip"))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(zf)
	for name, src := range depGroup {
		w, err := zw.Create("example.com/dep@v1.0.0/" + name)
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
	t.Setenv("GOFLAGS", "-modcacherw") // t.TempDir removes it
	dir := t.TempDir()
	for name, src := range depUser {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "mod", "download", "example.com/dep")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go mod download: %v\n%s", err, out)
	}
	return dir
}

// TestGoroutinesOfAModule: goroutines that a package of another module,
// from the module cache, starts for the user's code are forked in the
// trace (instrument's moduleDeps), so their names are the same in every run
// and its WaitGroup orders them before the code after Wait. Double's
// workers write elements that the test reads after Wait: nothing to
// predict. Sum's workers race on s: reported. Before, the workers were
// roots named by the order of their first events ("g2", "g3"), Double's
// writes were predicted to race with the reads after Wait, and their
// replays waited for a worker "started outside instrumented code" until
// the deadlock bound, leaving the rest of the trace's predictions
// unreplayed.
func TestGoroutinesOfAModule(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays a module")
	}
	dir := moduleFromProxy(t)
	pats, ok := pattern.Builtin("all")
	if !ok {
		t.Fatal("no built-in pattern set all")
	}
	rep, err := check.Run(context.Background(), check.Options{Dir: dir, Patterns: []string{"./p"}, Anomalies: pats})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range rep.Notes {
		if s := n.String(); strings.Contains(s, "not replayed") || strings.Contains(s, "not checked") {
			t.Errorf("note: %s", s)
		}
	}
	sum := false
	for _, f := range rep.Findings {
		msg := f.Verdict.Verdict + ": " + f.Verdict.Message
		if strings.Contains(msg, "outside instrumented code") {
			t.Errorf("%s %s: %s", f.Test, f.Anomaly.Key, msg)
		}
		if f.Test == "TestDouble" {
			t.Errorf("TestDouble: %s: %s", f.Anomaly.Key, msg)
		}
	}
	for _, f := range rep.Reported() {
		if f.Test == "TestSum" && f.Anomaly.Pattern.Kind == "race" && strings.Contains(f.Anomaly.Key, "p/p.go:21") {
			sum = true
		}
	}
	if !sum {
		var got []string
		for _, f := range rep.Reported() {
			got = append(got, f.Test+" "+f.Anomaly.Key)
		}
		t.Errorf("TestSum's race on s (p/p.go:21) not reported; reported %q", got)
	}
}
