package testbin

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// writeTree writes files (slash paths) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// listTree lists dir's tree: each path with its content or "/" for a
// directory.
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			out = append(out, rel+"/")
			return nil
		}
		b, err := os.ReadFile(p)
		out = append(out, rel+"="+string(b))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// prime runs, as a test process of dir would, one that makes and
// removes a file in it: from then on Private mirrors dir.
func prime(t *testing.T, dir string) {
	t.Helper()
	wd, _, done := Private(dir)
	if wd != dir {
		t.Fatalf("Private(%s) = %s before any process wrote there: want the directory itself", dir, wd)
	}
	f := filepath.Join(wd, "first.db")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(f); err != nil {
		t.Fatal(err)
	}
	done()
}

// TestPrivate: once a test process has written in its package's
// directory, a test process's working directory mirrors the package's:
// it reads what the package's tree holds (below it, and beside it through
// "../"), walks its testdata as directories of regular files, and what it
// creates, rewrites by rename or removes there is its own; the user's tree
// is the same after, and the mirror is gone.
func TestPrivate(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	root := filepath.Join(t.TempDir(), "mod")
	writeTree(t, root, map[string]string{
		"go.mod":                   "module example.com/mod\n",
		"testdata/shared.txt":      "shared",
		"pkg/p.go":                 "package pkg\n",
		"pkg/left.db":              "left by a killed run",
		"pkg/testdata/a.txt":       "a",
		"pkg/testdata/sub/b.txt":   "b",
		"pkg/inner/testdata/c.txt": "c",
		"other/o.go":               "package other\n",
	})
	before := listTree(t, root)
	pkg := filepath.Join(root, "pkg")
	// A directory its processes leave alone is theirs as it is: no mirror.
	other := filepath.Join(root, "other")
	for range 2 {
		if wd, _, done := Private(other); wd != other {
			t.Errorf("Private(%s) = %s: a mirror where no process wrote", other, wd)
		} else {
			done()
		}
	}
	prime(t, pkg)
	wd, env, done := Private(pkg)
	if wd == pkg || !strings.HasPrefix(env, "TMPDIR=") || !strings.HasPrefix(wd, strings.TrimPrefix(env, "TMPDIR=")) {
		t.Fatalf("Private(%s) = %s, %q: want a mirror under its TMPDIR", pkg, wd, env)
	}
	if !strings.HasSuffix(filepath.ToSlash(wd), "/mod/pkg") {
		t.Errorf("the mirror %s does not end in the package's path from the module root", wd)
	}
	read := func(rel string) string {
		b, err := os.ReadFile(filepath.Join(wd, rel))
		if err != nil {
			t.Errorf("reading %s in the mirror: %v", rel, err)
		}
		return string(b)
	}
	if read("testdata/sub/b.txt") != "b" || read("../testdata/shared.txt") != "shared" || read("../other/o.go") != "package other\n" || read("inner/testdata/c.txt") != "c" {
		t.Errorf("the mirror does not read as the package's tree")
	}
	// filepath.Walk does not follow links: testdata must be a directory
	// of regular files.
	var walked []string
	filepath.Walk(filepath.Join(wd, "testdata"), func(p string, info fs.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			rel, _ := filepath.Rel(wd, p)
			walked = append(walked, filepath.ToSlash(rel))
		}
		return err
	})
	if want := []string{"testdata/a.txt", "testdata/sub/b.txt"}; !slices.Equal(walked, want) {
		t.Errorf("walking testdata in the mirror found %v, want %v", walked, want)
	}
	// What the test does there stays there.
	writeTree(t, wd, map[string]string{"test.db": "mine", "test-data/k": "v", "testdata/new.txt": "n", "../up.db": "u"})
	if err := os.Remove(filepath.Join(wd, "testdata", "a.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wd, "p.tmp"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(wd, "p.tmp"), filepath.Join(wd, "p.go")); err != nil {
		t.Fatal(err)
	}
	// A data file rewritten in place is the mirror's copy.
	if err := os.WriteFile(filepath.Join(wd, "left.db"), []byte("rewritten"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(wd, "inner")); err != nil {
		t.Fatal(err)
	}
	if after := listTree(t, root); !slices.Equal(after, before) {
		t.Errorf("the user's tree changed:\nbefore %v\nafter  %v", before, after)
	}
	// Two processes' mirrors are apart.
	wd2, _, done2 := Private(pkg)
	if _, err := os.Stat(filepath.Join(wd2, "test.db")); err == nil || wd2 == wd {
		t.Errorf("a second mirror %s sees the first's file", wd2)
	}
	done2()
	done()
	if _, err := os.Stat(wd); err == nil {
		t.Errorf("the mirror %s is left after done", wd)
	}
	if after := listTree(t, root); !slices.Equal(after, before) {
		t.Errorf("removing the mirror changed the user's tree:\nbefore %v\nafter  %v", before, after)
	}
}

// TestPrivateNoModule: a directory with no go.mod above is mirrored from
// its parent; one that cannot be read runs where it is.
func TestPrivateNoModule(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	top := t.TempDir()
	writeTree(t, top, map[string]string{"p/a.txt": "a", "q/b.txt": "b"})
	prime(t, filepath.Join(top, "p"))
	wd, _, done := Private(filepath.Join(top, "p"))
	defer done()
	if b, err := os.ReadFile(filepath.Join(wd, "../q/b.txt")); err != nil || string(b) != "b" || wd == filepath.Join(top, "p") {
		t.Errorf("Private without go.mod: %s reads ../q/b.txt as %q, %v", wd, b, err)
	}
	missing := filepath.Join(top, "none")
	if wd, _, done := Private(missing); wd != missing {
		t.Errorf("Private(%s) = %s, want the directory itself", missing, wd)
	} else {
		done()
	}
}

// TestPrivateFixedPath runs, four at once, a test that keeps a file at a
// fixed path in its directory while it works (pogreb's "test.db"): in the
// package's directory one process finds another's file; after a first
// run has shown that the test writes there, each in its own mirror, all
// pass.
func TestPrivateFixedPath(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	bin, dir := buildTests(t, `package m

import (
	"os"
	"testing"
	"time"
)

func TestDB(t *testing.T) {
	f, err := os.OpenFile("test.db", os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	time.Sleep(300 * time.Millisecond)
	if err := os.Remove("test.db"); err != nil {
		t.Fatal(err)
	}
}
`)
	if r := RunTest(context.Background(), bin, dir, "TestDB", nil, time.Minute); !r.Passed {
		t.Fatalf("the first run failed:\n%s", r.Output)
	}
	var wg sync.WaitGroup
	runs := make([]Run, 4)
	for i := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runs[i] = RunTest(context.Background(), bin, dir, "TestDB", nil, time.Minute)
		}()
	}
	wg.Wait()
	for i, r := range runs {
		if !r.Passed {
			t.Errorf("run %d failed:\n%s", i, r.Output)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "test.db")); err == nil {
		t.Errorf("test.db left in the package's directory")
	}
}

// TestPrivateLeavesLaterFiles: a file that appeared in the package's
// directory after its first test process began (another process, started
// before the mirrors, holding its test.db) is not in a mirror; the
// directory's own files are.
func TestPrivateLeavesLaterFiles(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	root := filepath.Join(t.TempDir(), "mod")
	writeTree(t, root, map[string]string{"go.mod": "module m\n", "p/p.go": "package p\n"})
	pkg := filepath.Join(root, "p")
	prime(t, pkg)
	writeTree(t, pkg, map[string]string{"test.db": "another process's", "test-data/k": "v"})
	wd, _, done := Private(pkg)
	defer done()
	if wd == pkg {
		t.Fatalf("no mirror")
	}
	for _, name := range []string{"test.db", "test-data"} {
		if _, err := os.Lstat(filepath.Join(wd, name)); err == nil {
			t.Errorf("the mirror holds %s, made after the package's first test process began", name)
		}
	}
	if b, err := os.ReadFile(filepath.Join(wd, "p.go")); err != nil || string(b) != "package p\n" {
		t.Errorf("the mirror's p.go: %q, %v", b, err)
	}
}
