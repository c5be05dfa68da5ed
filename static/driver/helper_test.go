package driver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHelperTimeDependentState runs the drivers' helper (pecanvetDrive)
// on a shared receiver (below) and on a case whose state changes with time: an item is "young" for 250ms.
// The sequential calls are fast and leave it young; the concurrent run is
// slowed (as a replay's schedule slows it: on cache2go, an item's 1s
// lifespan expired during one) and leaves it old. That is no effect of
// the calls' order: the driver must skip saying so, not fail.
func TestHelperTimeDependentState(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := t.TempDir()
	src := "package x\n\nimport (\n\t\"fmt\"\n\tpecanvetos \"os\"\n\t\"reflect\"\n\t\"testing\"\n\t\"time\"\n)\n\nvar _ = fmt.Sprint\n" + helper + `
type shared struct{ n int }

var one = &shared{}

func TestShared(t *testing.T) {
	pecanvetDrive(t, "Inc and Inc", func() pecanvetCase {
		return pecanvetCase{
			A:     func() []interface{} { one.n++; return nil },
			B:     func() []interface{} { one.n++; return nil },
			State: func() []pecanvetKV { return []pecanvetKV{{"Quarter()", []interface{}{(one.n - 1) / 4}}} },
			Recv:  one,
		}
	})
}

func TestClock(t *testing.T) {
	n := 0
	pecanvetDrive(t, "Put and Put", func() pecanvetCase {
		n++
		slow := n == 2 // the concurrent run: after the first sequential one
		var at time.Time
		return pecanvetCase{
			A: func() []interface{} {
				if slow {
					time.Sleep(100 * time.Millisecond)
				}
				at = time.Now()
				return nil
			},
			B:     func() []interface{} { return nil },
			State: func() []pecanvetKV { return []pecanvetKV{{"Young()", []interface{}{time.Since(at) < 250*time.Millisecond}}} },
		}
	})
}
`
	// A is timed at its end: to make the slow run's item old, the state
	// is read late: B waits in the slow run.
	src = strings.Replace(src, `B:     func() []interface{} { return nil },`, `B: func() []interface{} {
				if slow {
					time.Sleep(600 * time.Millisecond)
				}
				return nil
			},`, 1)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-v", "-count=1", ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- SKIP: TestClock") || !strings.Contains(string(out), "changes with time") {
		t.Errorf("the driver did not skip for a state that changes with time:\n%s", out)
	}
	// A receiver shared by every case (a registry's instance): each order
	// starts from the last one's state (Quarter() = 0, 0, 1, 1, then 2 together), no oracle; the
	// calls still run together, and nothing fails.
	if !strings.Contains(string(out), "--- PASS: TestShared") || !strings.Contains(string(out), "shared instance): no oracle") {
		t.Errorf("the driver compared a shared receiver's state:\n%s", out)
	}
}

// TestHelperOrderedCalls: a resource whose Release and Use panic once it
// is hijacked or released, and whose getter panics once it is released
// (puddle's). The test's Release as the cleanup after Hijack is no fault
// of the calls: Hijack and Reset run. Hijack and Use, Use and Release
// panic in one order only (the getter's panic after Release is the
// state, not the calls'): valid in the other only. Release and Release
// panic in both orders but not alone: they exclude each other. None of
// them is said to lack a usable receiver.
func TestHelperOrderedCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := t.TempDir()
	src := "package x\n\nimport (\n\t\"fmt\"\n\tpecanvetos \"os\"\n\t\"reflect\"\n\t\"testing\"\n\t\"time\"\n)\n\nvar _ = fmt.Sprint\n" + helper + `
type res struct {
	hijacked, released bool
	uses               int
}

func (r *res) Hijack() { r.hijacked = true }
func (r *res) Reset()  { r.uses = 0 }
func (r *res) Release() {
	if r.hijacked || r.released {
		panic("not acquired")
	}
	r.released = true
}
func (r *res) Use() {
	if r.hijacked || r.released {
		panic("not acquired")
	}
	r.uses++
}
func (r *res) Uses() int {
	if r.released {
		panic("released")
	}
	return r.uses
}

func drive(t *testing.T, calls string, a, b func(r *res)) {
	pecanvetDrive(t, calls, func() pecanvetCase {
		r := &res{}
		return pecanvetCase{
			A: func() []interface{} { a(r); return nil },
			B: func() []interface{} { b(r); return nil },
			State: func() []pecanvetKV {
				v := r
				var s []pecanvetKV
				func() {
					defer pecanvetGetterPanic(&s, "Uses()")
					r0 := v.Uses()
					s = append(s, pecanvetKV{"Uses()", []interface{}{r0}})
				}()
				return s
			},
			Cleanup: func() { r.Release() },
			Recv:    r,
		}
	})
}

func TestHijackReset(t *testing.T)    { drive(t, "Hijack and Reset", (*res).Hijack, (*res).Reset) }
func TestHijackUse(t *testing.T)      { drive(t, "Hijack and Use", (*res).Hijack, (*res).Use) }
func TestUseRelease(t *testing.T)     { drive(t, "Use and Release", (*res).Use, (*res).Release) }
func TestReleaseRelease(t *testing.T) { drive(t, "Release and Release", (*res).Release, (*res).Release) }
`
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-v", "-count=1", ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	for _, w := range []string{
		"--- PASS: TestHijackReset",
		"Hijack and Use one after the other panics in one order (not acquired), not in the other: the calls are valid in one order only",
		"Use and Release one after the other panics in one order (not acquired), not in the other: the calls are valid in one order only",
		"Release and Release one after the other panics in both orders (not acquired), each alone not: the calls exclude each other",
	} {
		if !strings.Contains(string(out), w) {
			t.Errorf("the drivers' output lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(string(out), "no usable receiver") {
		t.Errorf("a driver says it has no usable receiver:\n%s", out)
	}
}

// TestHelperNoReceiverWhy: a driver whose receiver panics in both orders
// skips saying why, with the reason the generator gave (no test
// constructs the type: cockroach69408's blockingBuffer), and without it
// as before.
func TestHelperNoReceiverWhy(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := t.TempDir()
	src := "package x\n\nimport (\n\t\"fmt\"\n\tpecanvetos \"os\"\n\t\"reflect\"\n\t\"testing\"\n\t\"time\"\n)\n\nvar _ = fmt.Sprint\n" + helper + `
type buffer struct{ notify func() }

func (b *buffer) Push() { b.notify() }

func mk() pecanvetCase {
	x := new(buffer)
	return pecanvetCase{
		A:     func() []interface{} { x.Push(); return nil },
		B:     func() []interface{} { x.Push(); return nil },
		State: func() []pecanvetKV { return nil },
		Recv:  x,
	}
}

func TestWhy(t *testing.T) {
	pecanvetDrive(t, "Push and Push", mk, "no test or example constructs buffer; the driver's receiver is its zero value")
}

func TestBare(t *testing.T) { pecanvetDrive(t, "Push and Push", mk) }
`
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-v", "-count=1", ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	for _, w := range []string{
		"no usable receiver: no test or example constructs buffer; the driver's receiver is its zero value",
		"--- SKIP: TestBare",
	} {
		if !strings.Contains(string(out), w) {
			t.Errorf("the drivers' output lacks %q:\n%s", w, out)
		}
	}
}

// TestHelperQuickDriver runs a driver whose calls block for good, as
// pecanvet replays one whose recording skipped so: named in
// PECANVET_QUICK_DRIVERS, it skips after a second, not pecanvetWait;
// another driver of the process keeps the full wait.
func TestHelperQuickDriver(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := t.TempDir()
	src := "package x\n\nimport (\n\t\"fmt\"\n\tpecanvetos \"os\"\n\t\"reflect\"\n\t\"testing\"\n\t\"time\"\n)\n\nvar _ = fmt.Sprint\n" + helper + `
type stuck struct{ c chan int }

func (s *stuck) Wait() { <-s.c }

func mk() pecanvetCase {
	x := &stuck{c: make(chan int)}
	return pecanvetCase{
		A:     func() []interface{} { x.Wait(); return nil },
		B:     func() []interface{} { return nil },
		State: func() []pecanvetKV { return nil },
		Recv:  x,
	}
}

func TestQuick(t *testing.T) { pecanvetDrive(t, "Wait and Nothing", mk) }

func TestFull(t *testing.T) {
	if pecanvetWaitFor(t.Name()) != pecanvetWait {
		t.Errorf("TestFull waits %v", pecanvetWaitFor(t.Name()))
	}
}
`
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-v", "-count=1", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PECANVET_QUICK_DRIVERS=TestOther,TestQuick,TestQuickX")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	for _, w := range []string{"does not return within 1s", "--- SKIP: TestQuick (1.", "--- PASS: TestFull"} {
		if !strings.Contains(string(out), w) {
			t.Errorf("the drivers' output lacks %q:\n%s", w, out)
		}
	}
}
