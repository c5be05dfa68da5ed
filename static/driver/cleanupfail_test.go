package driver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHelperCleanupFailure: a failure that the cleanup copied from a test
// raises (cmux's deferred leakCheck, which found a replay's held
// goroutine "leaked") is not the calls': the driver says so last
// (CleanupFailLog), and pecanvet's replays pass such a run
// (replay.Options.Excused). The line is not written when the oracle
// found the calls' outcome wrong as well (TestLost), nor when the test
// had failed before the cleanup ran (TestSetupFails): those failures
// stand.
func TestHelperCleanupFailure(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := t.TempDir()
	src := "package x\n\nimport (\n\t\"fmt\"\n\tpecanvetos \"os\"\n\t\"reflect\"\n\t\"testing\"\n\t\"time\"\n)\n\nvar _ = fmt.Sprint\n" + helper + `
type box struct{ n, calls int }

// Set stores the same value whatever the order; Add loses an update
// when its two calls run together (the second case is the concurrent
// one).
func (x *box) Set()              { x.n = 1 }
func (x *box) Add(together bool) {
	n := x.n
	if together && x.calls == 0 {
		x.calls++
		time.Sleep(20 * time.Millisecond)
	}
	x.n = n + 1
}

func drive(t *testing.T, calls string, setupFails bool, a func(*box, bool)) {
	k := 0
	pecanvetDrive(t, calls, func() pecanvetCase {
		k++
		together := k == 2
		if setupFails && together {
			t.Errorf("setup fails")
		}
		x := &box{}
		return pecanvetCase{
			A:     func() []interface{} { a(x, together); return nil },
			B:     func() []interface{} { a(x, together); return nil },
			State: func() []pecanvetKV { return []pecanvetKV{{"n", []interface{}{x.n}}} },
			Recv:  x,
			Cleanup: func() {
				if together {
					t.Errorf("Leaked goroutine: goroutine 4 [select]")
				}
			},
		}
	})
}

func TestSame(t *testing.T)       { drive(t, "Set and Set", false, func(x *box, _ bool) { x.Set() }) }
func TestLost(t *testing.T)       { drive(t, "Add and Add", false, (*box).Add) }
func TestSetupFails(t *testing.T) { drive(t, "Set and Set", true, func(x *box, _ bool) { x.Set() }) }
`
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		test    string
		excused bool
		more    string
	}{
		{"TestSame", true, ""},
		{"TestLost", false, "Add and Add called together left n = 1; called one after the other, they left n = 2"},
		{"TestSetupFails", false, "setup fails"},
	} {
		cmd := exec.Command("go", "test", "-v", "-count=1", "-run", "^"+c.test+"$", ".")
		cmd.Dir = dir
		b, err := cmd.CombinedOutput()
		out := string(b)
		if err == nil || !strings.Contains(out, "--- FAIL: "+c.test) || !strings.Contains(out, "Leaked goroutine") {
			t.Errorf("%s: want the cleanup's failure: %v\n%s", c.test, err, out)
			continue
		}
		if strings.Contains(out, CleanupFailLog) != c.excused || !strings.Contains(out, c.more) {
			t.Errorf("%s: want %q logged: %v, and %q:\n%s", c.test, CleanupFailLog, c.excused, c.more, out)
		}
	}
}
