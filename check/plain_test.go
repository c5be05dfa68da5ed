package check

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/testbin"
)

// TestPlainRuns: failNote's normal runs take a failed test together with
// the others that failed after it, in one process (each test writes its
// process id), and give each what a run alone gives; a test whose
// process ended before it (a panic) is run alone when asked for.
func TestPlainRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir := t.TempDir()
	out := t.TempDir()
	for name, text := range map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.21\n",
		"m.go":   "package m\n",
		"m_test.go": `package m

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func pid(t *testing.T) {
	os.WriteFile(filepath.Join(os.Getenv("PIDS"), t.Name()), []byte(fmt.Sprint(os.Getpid())), 0o644)
}

func TestFailA(t *testing.T)  { pid(t); t.Error("a") }
func TestPassB(t *testing.T)  { pid(t) }
func TestFailC(t *testing.T)  { pid(t); t.Error("c") }
func TestPanicD(t *testing.T) { pid(t); panic("d") }
func TestFailE(t *testing.T)  { pid(t); t.Error("e") }
`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(t.TempDir(), "m.test")
	cmd := exec.Command("go", "test", "-c", "-vet=off", "-o", bin, ".")
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	t.Setenv("PIDS", out)
	const pkg = "example.com/m"
	b := &testbin.Build{Binaries: map[string]string{pkg: bin}, Plain: map[string]string{pkg: bin}, Dirs: map[string]string{pkg: dir}}
	p := &plainRuns{ctx: context.Background(), b: b, pkg: pkg, timeout: time.Minute}
	pidOf := func(test string) string {
		b, err := os.ReadFile(filepath.Join(out, test))
		if err != nil {
			t.Fatalf("%s did not run: %v", test, err)
		}
		return string(b)
	}
	if passed, err := p.passed("TestFailA", []string{"TestPassB", "TestFailC", "TestPanicD", "TestFailE"}); err != nil || passed {
		t.Fatalf("TestFailA: passed %v, %v; want a failure", passed, err)
	}
	if a, c := pidOf("TestFailA"), pidOf("TestFailC"); a != c {
		t.Errorf("TestFailA ran in process %s, TestFailC in %s: want one process", a, c)
	}
	for test, want := range map[string]bool{"TestFailC": false, "TestPanicD": false} {
		if v, ok := p.passes[test]; !ok || v != want {
			t.Errorf("%s: passed %v (run: %v) after the first run, want %v", test, v, ok, want)
		}
	}
	// The process failed, so TestPassB's pass is not taken from it (a
	// TestMain's check would fail it alone); nor did TestFailE run.
	for _, test := range []string{"TestPassB", "TestFailE"} {
		if v, ok := p.passes[test]; ok {
			t.Errorf("%s: passed %v taken from the first run", test, v)
		}
	}
	os.Remove(filepath.Join(out, "TestFailE"))
	if passed, err := p.passed("TestFailE", nil); err != nil || passed {
		t.Errorf("TestFailE: passed %v, %v; want a failure", passed, err)
	}
	if pidOf("TestFailE") == pidOf("TestFailA") {
		t.Error("TestFailE ran in the first process, after TestPanicD's panic")
	}
	if passed, err := p.passed("TestPassB", nil); err != nil || !passed {
		t.Errorf("TestPassB: passed %v, %v; want a pass (alone)", passed, err)
	}
}
