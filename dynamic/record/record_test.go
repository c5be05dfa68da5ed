package record_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/record"
	"github.com/pecanvet/pecanvet/dynamic/testbin"
	"github.com/pecanvet/pecanvet/internal/note"
)

// writeModule creates a module from name → content.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// treeHash hashes every file (path and content) under dir.
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	var paths []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			paths = append(paths, p)
		}
		return nil
	})
	sort.Strings(paths)
	for _, p := range paths {
		b, _ := os.ReadFile(p)
		h.Write([]byte(p))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

const counter = `package counter

import "sync"

type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}
`

// workSrc is the test modules' shared helper: two goroutines increment a
// Counter, one waiting for the other.
const workSrc = `func work(c *Counter) {
	done := make(chan bool)
	go func() { c.Inc(); done <- true }()
	c.Inc()
	<-done
}
`

func TestBadEnds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir := writeModule(t, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.24\n",
		"counter.go": counter,
		"counter_test.go": `package counter

import (
	"os"
	"testing"
	"time"
)

` + workSrc + `
func TestOK(t *testing.T)    { work(&Counter{}) }
func TestPanic(t *testing.T) { work(&Counter{}); panic("boom") }
func TestExit(t *testing.T)  { t.TempDir(); work(&Counter{}); os.Exit(3) }
func TestHang(t *testing.T)  { t.TempDir(); work(&Counter{}); time.Sleep(time.Hour) }
`,
		"notests/x.go": "package notests\n\nvar X int\n",
	})
	before := treeHash(t, dir)
	// The t.TempDir of a test that exits or is killed at the bound is
	// never cleaned up by the test; it goes with the process's own temp
	// dir (testbin.Private), and pecanvet's dirs with the build.
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	defer func() {
		if left, _ := os.ReadDir(tmp); len(left) > 0 {
			t.Errorf("left in the temp dir: %v", left)
		}
	}()
	// A relative output directory (pecanvet record's default) is taken
	// from where pecanvet runs, not from the test's package directory.
	t.Chdir(t.TempDir())
	tests, notes, err := record.Record(context.Background(), record.Options{
		Dir: dir, Patterns: []string{"./..."}, OutDir: "out", Timeout: 3 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	if after := treeHash(t, dir); after != before {
		t.Errorf("the module's files changed")
	}
	if !strings.Contains(strings.Join(note.Strings(notes), "\n"), "notests: no test files") {
		t.Errorf("notes %q do not say the package has no tests", notes)
	}
	got := map[string]record.Test{}
	for _, r := range tests {
		got[r.Name] = r
	}
	for name, want := range map[string]struct {
		passed    bool
		truncated string
	}{
		"TestOK":    {true, ""},
		"TestPanic": {false, "without end marker"},
		"TestExit":  {false, "os.Exit(3)"},
		"TestHang":  {false, "timed out"},
	} {
		r, ok := got[name]
		if !ok {
			t.Errorf("%s not recorded", name)
			continue
		}
		if r.Passed != want.passed || !strings.Contains(r.Truncated, want.truncated) || (want.truncated == "") != (r.Truncated == "") {
			t.Errorf("%s: passed %v truncated %q, want %v and %q", name, r.Passed, r.Truncated, want.passed, want.truncated)
		}
		// Every trace keeps the events before the end: two goroutines
		// incrementing under the lock, the test's forked by the main
		// goroutine (rt.TestStart).
		if r.Events < 10 || r.Goroutines != 3 {
			t.Errorf("%s: %d events, %d goroutines", name, r.Events, r.Goroutines)
		}
	}
	if r := got["TestHang"]; r.Wall > 10*time.Second {
		t.Errorf("the hanging test ran %v despite a 3s timeout", r.Wall)
	}
}

func TestDoesNotCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir := writeModule(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.24\n",
		"x.go":   "package x\n\nfunc F() int { return undefined }\n",
	})
	before := treeHash(t, dir)
	_, _, err := record.Record(context.Background(), record.Options{Dir: dir, OutDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "x.go:3") || !strings.Contains(err.Error(), "undefined") {
		t.Fatalf("error %v, want the compiler's message for x.go:3", err)
	}
	if treeHash(t, dir) != before {
		t.Errorf("the module's files changed")
	}
}

// TestSubjectsBehaveAlike builds every evaluation subject plain and
// instrumented and checks that each test passes or fails alike, and that
// the subjects' files are untouched.
func TestSubjectsBehaveAlike(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every subject twice")
	}
	dir, _ := filepath.Abs("testdata/subjects") // the sample below
	if os.Getenv("PECANVET_SUBJECTS") == "all" {
		dir, _ = filepath.Abs("../../testdata/src")
	}
	before := treeHash(t, dir)
	ctx := context.Background()
	// Every subject takes minutes (two builds each); by default a fixed
	// sample covering each kind of subject, all with
	// PECANVET_SUBJECTS=all (make eval).
	pats := []string{"./account", "./accountfixed", "./pecanfig1", "./wgaddinside", "./fireforget", "./afterfunc",
		"./freshalloc", "./syncmapcta", "./oncefunc", "./loopvarold", "./namedresult", "./eventloop", "./gauge"}
	if os.Getenv("PECANVET_SUBJECTS") == "all" {
		pats = []string{"./..."}
	}
	b, err := record.NewBuild(ctx, record.Options{Dir: dir, Patterns: pats, Plain: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	tmp := t.TempDir()
	n := 0
	for pkg := range b.Binaries {
		tests, err := b.Tests(ctx, pkg, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range tests {
			plain := testbin.RunTest(ctx, b.Plain[pkg], b.Dirs[pkg], name, nil, time.Minute)
			rec := b.RecordTest(ctx, pkg, name, filepath.Join(tmp, "t.trace"), time.Minute)
			// A subject whose outcome is up to the scheduler
			// (fireforget's test fails when its goroutine runs before
			// the read, which load makes likely) can differ from one
			// run to the next, plain or recorded: they behave alike
			// unless a few more pairs of runs all differ too.
			for i := 0; i < 3 && plain.Passed != rec.Passed; i++ {
				plain = testbin.RunTest(ctx, b.Plain[pkg], b.Dirs[pkg], name, nil, time.Minute)
				if plain.Passed != rec.Passed {
					rec = b.RecordTest(ctx, pkg, name, filepath.Join(tmp, "t.trace"), time.Minute)
				}
			}
			if plain.Passed != rec.Passed {
				t.Errorf("%s %s: passed %v plain, %v recorded\n%s", pkg, name, plain.Passed, rec.Passed, rec.Output)
			}
			if rec.Truncated != "" {
				t.Errorf("%s %s: trace truncated: %s", pkg, name, rec.Truncated)
			}
			n++
		}
	}
	if treeHash(t, dir) != before {
		t.Errorf("the subjects' files changed")
	}
	t.Logf("%d subject tests behave alike plain and recorded", n)
}
