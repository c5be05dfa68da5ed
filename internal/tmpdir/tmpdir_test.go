package tmpdir

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary play a pecanvet that makes a directory
// and dies without cleaning up (os.Exit runs no deferred function, as a
// SIGKILL would run none).
func TestMain(m *testing.M) {
	if os.Getenv("TMPDIR_TEST_DIE") == "1" {
		dir, err := Make("pecanvet-sweeptest-")
		if err != nil {
			os.Exit(2)
		}
		os.WriteFile(filepath.Join(dir, "p0.test"), []byte("a test binary"), 0o600)
		os.Stdout.WriteString(dir)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func dead(t *testing.T) string {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "TMPDIR_TEST_DIE=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v", err)
	}
	dir := strings.TrimSpace(string(out))
	if _, err := os.Stat(filepath.Join(dir, "p0.test")); err != nil {
		t.Fatalf("the dead child's directory is not there: %v", err)
	}
	return dir
}

func TestSweep(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	gone := dead(t)
	live, err := Make("pecanvet-sweeptest-")
	if err != nil {
		t.Fatal(err)
	}
	defer Remove(live)
	// A pecanvet directory of an older build, or another tool's: no lock file.
	other := filepath.Join(os.TempDir(), "pecanvet-check-old")
	if err := os.Mkdir(other, 0o700); err != nil {
		t.Fatal(err)
	}

	if n := Sweep(time.Hour); n != 0 {
		t.Errorf("Sweep(1h) removed %d directories younger than an hour", n)
	}
	if n := Sweep(0); n != 1 {
		t.Errorf("Sweep(0) removed %d directories, want 1 (the dead child's)", n)
	}
	if _, err := os.Stat(gone); !os.IsNotExist(err) {
		t.Errorf("the dead child's directory %s is still there (%v)", gone, err)
	}
	for _, d := range []string{live, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was swept: %v", d, err)
		}
	}
	if err := Remove(live); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(live); !os.IsNotExist(err) {
		t.Errorf("Remove left %s", live)
	}
}

// TestSweepSkipsUnlockedYoung: the age bound protects a directory whose
// owner has not locked it yet.
func TestSweepSkipsUnlockedYoung(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	gone := dead(t)
	// Its owner is dead, but its lock file is fresh: a live owner
	// could be between creating and locking it.
	if n := Sweep(youngest); n != 0 {
		t.Errorf("Sweep removed %d directories with a fresh lock file", n)
	}
	old := time.Now().Add(-time.Minute)
	if err := os.Chtimes(filepath.Join(gone, LockName), old, old); err != nil {
		t.Fatal(err)
	}
	if n := Sweep(youngest); n != 1 {
		t.Errorf("Sweep removed %d directories, want the dead one", n)
	}
}

// TestRemoveMany: Remove takes a directory of many subtrees (removed
// several at once, removeAll) whole, lock file, files at each level and
// all, and drops its lock; a small one too.
func TestRemoveMany(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	for _, n := range []int{1, 40} {
		dir, err := Make("pecanvet-removetest-")
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "top"), []byte("x"), 0o600)
		for i := 0; i < n; i++ {
			sub := filepath.Join(dir, "own", "t"+strconv.Itoa(i), "TestX")
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{filepath.Join(sub, "schedule"), filepath.Join(sub, "..", "trace"), filepath.Join(dir, "own", "f"+strconv.Itoa(i))} {
				if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := Remove(dir); err != nil {
			t.Errorf("%d subtrees: Remove: %v", n, err)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%d subtrees: %s still there (%v)", n, dir, err)
		}
		mu.Lock()
		_, locked := locks[dir]
		mu.Unlock()
		if locked {
			t.Errorf("%d subtrees: lock kept", n)
		}
	}
}

func TestRemoveHeld(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	a, err := Make("pecanvet-a-")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Make("pecanvet-b-")
	if err != nil {
		t.Fatal(err)
	}
	Remove(b)
	RemoveHeld()
	for _, d := range []string{a, b} {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("%s still there (%v)", d, err)
		}
	}
	mu.Lock()
	n := len(locks)
	mu.Unlock()
	if n != 0 {
		t.Errorf("%d locks still held", n)
	}
}
