package driver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestHelperCallsBeforeOracle: the calls together run after the first
// serial order and before the other three (issue 30), so a call's panic
// together is judged by orders that run after it. A panic together whose
// reverse order panics too skips (valid in one order only), saying that
// it skipped after the calls ran (LateSkipLog), as when the oracle ran
// first; a panic together where the orders pass ends the process with
// the call's own traceback (the panic's first user frame is the method,
// as pecanvet's replay reads it: replay.Consequence), whichever call
// panics. Under a replay (pecanvetReplaying) a panic is not held for the
// oracle: it ends the process at once.
func TestHelperCallsBeforeOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := t.TempDir()
	src := "package x\n\nimport (\n\t\"fmt\"\n\tpecanvetos \"os\"\n\t\"reflect\"\n\t\"testing\"\n\t\"time\"\n)\n\nvar _ = fmt.Sprint\n" + helper + `
type box struct {
	b        bool
	together bool
}

// A panics after B (the reverse order), and whenever run together.
func (x *box) A() {
	if x.b || x.together {
		panic("boom A") // LINE A
	}
}

func (x *box) B() { x.b = true }

// C panics only when run together, as does D.
func (x *box) C() {
	if x.together {
		panic("boom C") // LINE C
	}
}

func (x *box) D() {
	if x.together {
		panic("boom D") // LINE D
	}
}

func drive(t *testing.T, calls string, a, b func(*box)) {
	n := 0
	pecanvetDrive(t, calls, func() pecanvetCase {
		n++
		x := &box{together: n == 2}
		return pecanvetCase{
			A:     func() []interface{} { a(x); return nil },
			B:     func() []interface{} { b(x); return nil },
			State: func() []pecanvetKV { return []pecanvetKV{{"B", []interface{}{x.b}}} },
			Recv:  x,
		}
	})
}

func TestLate(t *testing.T)  { drive(t, "A and B", (*box).A, (*box).B) }
func TestFirst(t *testing.T) { drive(t, "C and B", (*box).C, (*box).B) }
func TestTest(t *testing.T)  { drive(t, "B and D", (*box).B, (*box).D) }
`
	line := func(tag string) string {
		for i, l := range strings.Split(src, "\n") {
			if strings.Contains(l, "// "+tag) {
				return "x_test.go:" + strconv.Itoa(i+1)
			}
		}
		t.Fatalf("no %s", tag)
		return ""
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(src, test string) string {
		if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("go", "test", "-v", "-count=1", "-run", "^"+test+"$", ".")
		cmd.Dir = dir
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	out := run(src, "TestLate")
	for _, w := range []string{"--- SKIP: TestLate", "panics in one order (boom A), not in the other", LateSkipLog} {
		if !strings.Contains(out, w) {
			t.Errorf("TestLate's output lacks %q:\n%s", w, out)
		}
	}
	for _, c := range []struct{ test, panic, at string }{
		{"TestFirst", "panic: boom C", line("LINE C")},
		{"TestTest", "panic: boom D", line("LINE D")},
	} {
		out := run(src, c.test)
		// The traceback: the panic line, then the method's frame before
		// any other of the file.
		i := strings.Index(out, c.panic)
		j := strings.Index(out[max(i, 0):], "x_test.go:")
		if i < 0 || j < 0 || !strings.HasPrefix(out[i+j:], c.at) || strings.Contains(out, LateSkipLog) {
			t.Errorf("%s: want %q at %s, no skip:\n%s", c.test, c.panic, c.at, out)
		}
	}
	replaying := strings.Replace(src, "func pecanvetReplaying() bool { return false }", "func pecanvetReplaying() bool { return true }", 1)
	if replaying == src {
		t.Fatal("no pecanvetReplaying stub")
	}
	out = run(replaying, "TestLate")
	if !strings.Contains(out, "panic: boom A") || strings.Contains(out, LateSkipLog) {
		t.Errorf("replaying, TestLate's panic was held for the oracle:\n%s", out)
	}
}
