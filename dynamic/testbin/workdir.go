package testbin

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pecanvet/pecanvet/internal/tmpdir"
)

// Private working directories. pecanvet runs a package's tests in many
// processes at once (recordings, replays, the normal runs failNote asks
// for), each in the package's directory, as go test runs one. A test that
// keeps a file at a fixed path there (pogreb's "test.db", diskv's
// "test-data/") then shares it with the others: one process removes or
// rewrites what another is using, and the test fails "only under
// instrumentation" or, replayed, takes another path. So each process of
// such a package (Private) runs in a mirror of the package's directory of
// its own, under its TMPDIR:
// the directories from the module's root (the nearest go.mod above) down
// to the package's are new directories; in each of them every other entry
// is a symbolic link to the original (so "../testdata" still reads);
// below the package's directory the tree is mirrored, directories as new
// directories (a filepath.Walk of "testdata" descends as before), sources
// and testdata fixtures as hard links (os.Lstat sees a regular file),
// other files as copies (mirrorTree). What a test creates, renames,
// rewrites or removes there is its own; the user's tree is only read
// through the links, never written by the mirror, and removing the mirror
// removes the links alone (os.RemoveAll follows none).

// mirrorMax bounds the entries mirrored below the package's directory;
// past it, a directory is linked instead of mirrored.
const mirrorMax = 2000

// maxUp bounds the walk up from a package's directory to its module's
// root.
const maxUp = 16

// Private makes what one test process of the package in dir keeps to
// itself: a TMPDIR (a test process killed at a bound, or whose replay ends
// it at a verdict, runs none of its t.TempDir cleanups; what it leaves goes
// with this directory instead of piling up in the user's temp dir) and,
// once a process of the package has changed dir's entries (its
// modification time moved: a test made or removed a file there), a
// working directory mirroring dir (above). A mirror costs a file system
// call per entry (a millisecond each on this project's CI machines, 300
// ms for a directory of 300), so a package whose tests leave their
// directory alone runs there, as go test runs it. It returns the
// directory to run the process in, the environment entry, and the
// function to call when the process has ended, which removes both.
// Whatever fails leaves the usual: dir itself, or the usual temp dir with
// an empty entry.
func Private(dir string) (wd, env string, done func()) {
	wd, env, _, done = PrivateFor(dir, nil)
	return wd, env, done
}

// PrivateFor is Private for a process that runs tests: it also holds the
// package's lock until done (hold), alone when one of tests is marked
// Alone, which it reports.
func PrivateFor(dir string, tests []string) (wd, env string, alone bool, done func()) {
	release, alone := hold(dir, tests)
	st := watch(dir)
	tmp, err := tmpdir.Make("pecanvet-tmp-")
	if err != nil {
		return dir, "", alone, func() { st.check(); release() }
	}
	env = "TMPDIR=" + tmp
	st.check() // a process still running may have changed it already
	if st.mirrored.Load() {
		if m, ok := mirror(dir, filepath.Join(tmp, "wd"), st.initial); ok {
			return m, env, alone, func() { tmpdir.Remove(tmp); release() }
		}
	}
	return dir, env, alone, func() { st.check(); tmpdir.Remove(tmp); release() }
}

// Mirrored reports whether Private now mirrors dir: a test process of its
// package changed its entries.
func Mirrored(dir string) bool {
	st, ok := watched.Load(dir)
	if !ok {
		return false
	}
	st.(*dirState).check()
	return st.(*dirState).mirrored.Load()
}

// dirState is what Private knows of a package's directory: its
// modification time when first seen, and whether a process has changed
// its entries since.
type dirState struct {
	dir      string
	mtime    time.Time
	initial  map[string]bool // its entries' names at first sight
	mirrored atomic.Bool
}

var watched sync.Map // directory → *dirState

// watch returns dir's state, taking its modification time at first sight.
func watch(dir string) *dirState {
	if st, ok := watched.Load(dir); ok {
		return st.(*dirState)
	}
	st := &dirState{dir: dir}
	if fi, err := os.Stat(dir); err == nil {
		st.mtime = fi.ModTime()
	}
	if es, err := os.ReadDir(dir); err == nil {
		st.initial = map[string]bool{}
		for _, e := range es {
			st.initial[e.Name()] = true
		}
	}
	got, _ := watched.LoadOrStore(dir, st)
	return got.(*dirState)
}

// check marks the directory for mirrors when its entries changed since
// first seen.
func (st *dirState) check() {
	if st.mirrored.Load() {
		return
	}
	if fi, err := os.Stat(st.dir); err == nil && !fi.ModTime().Equal(st.mtime) {
		st.mirrored.Store(true)
	}
}

// mirror builds the mirror of dir under base and returns the directory
// that stands for dir. Of dir's own entries it takes only those named in
// initial (its entries before any test process ran, when not nil): a file
// another test process, started before the mirrors, keeps there for the
// moment (a test.db) is that process's, not the package's, and a mirror
// that linked it had its test find it (TestFixedPathRecordedAgain: the
// normal runs of failNote then "failed in a normal run too").
func mirror(dir, base string, initial map[string]bool) (string, bool) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	root := moduleRoot(dir)
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel != "." && !filepath.IsLocal(rel) {
		return "", false
	}
	// The mirror's root keeps the module root's name: a test that looks
	// at its directory's parent's name sees the same.
	at := filepath.Join(base, filepath.Base(root))
	if err := os.MkdirAll(at, 0o755); err != nil {
		return "", false
	}
	real := root
	var chain []string
	if rel != "." {
		chain = strings.Split(filepath.ToSlash(rel), "/")
	}
	for _, next := range chain {
		if !linkEntries(real, at, next) {
			return "", false
		}
		real, at = filepath.Join(real, next), filepath.Join(at, next)
		if err := os.Mkdir(at, 0o755); err != nil {
			return "", false
		}
	}
	budget := mirrorMax
	if !mirrorTree(real, at, &budget, initial) {
		return "", false
	}
	return at, true
}

// moduleRoot returns the nearest directory at or above dir holding a
// go.mod; without one, dir's parent (so that "../x" still reads).
func moduleRoot(dir string) string {
	d := dir
	for range maxUp {
		if st, err := os.Stat(filepath.Join(d, "go.mod")); err == nil && st.Mode().IsRegular() {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	if up := filepath.Dir(dir); up != dir {
		return up
	}
	return dir
}

// linkEntries links every entry of real into at but skip.
func linkEntries(real, at, skip string) bool {
	es, err := os.ReadDir(real)
	if err != nil {
		return false
	}
	for _, e := range es {
		if e.Name() == skip {
			continue
		}
		if err := os.Symlink(filepath.Join(real, e.Name()), filepath.Join(at, e.Name())); err != nil {
			return false
		}
	}
	return true
}

// mirrorTree mirrors real's entries into at (an existing directory):
// directories as directories while the budget lasts, source files and
// fixtures under a testdata directory as hard links (read, never written),
// other files as copies (a test.db a killed process left behind: a test
// that opens it to write would write it for every mirror through a link),
// anything else (a symbolic link, a socket, a file on another file
// system) as a symbolic link to the original.
func mirrorTree(real, at string, budget *int, only map[string]bool) bool {
	es, err := os.ReadDir(real)
	if err != nil {
		return false
	}
	if only != nil {
		es = slices.DeleteFunc(es, func(e os.DirEntry) bool { return !only[e.Name()] })
	}
	*budget -= len(es)
	for _, e := range es {
		src, dst := filepath.Join(real, e.Name()), filepath.Join(at, e.Name())
		switch {
		case e.IsDir() && *budget > 0:
			if os.Mkdir(dst, 0o755) != nil || !mirrorTree(src, dst, budget, nil) {
				return false
			}
			continue
		case e.Type().IsRegular() && readOnly(src):
			if os.Link(src, dst) == nil {
				continue
			}
		case e.Type().IsRegular():
			if fi, err := e.Info(); err == nil && copyFile(src, dst, fi.Mode().Perm()) == nil {
				continue
			}
		}
		if os.Symlink(src, dst) != nil {
			return false
		}
	}
	return true
}

// readOnly reports whether a test is taken to only read the file at path:
// Go, assembly and C sources, go.mod and go.sum, and anything under a
// testdata directory.
func readOnly(path string) bool {
	switch filepath.Ext(path) {
	case ".go", ".s", ".c", ".h":
		return true
	}
	switch filepath.Base(path) {
	case "go.mod", "go.sum":
		return true
	}
	return slices.Contains(strings.Split(filepath.ToSlash(path), "/"), "testdata")
}
