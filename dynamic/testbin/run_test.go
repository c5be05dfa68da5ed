package testbin

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// buildTests builds a package of tests (src is its test file) and returns
// its test binary and directory.
func buildTests(t *testing.T, src string) (bin, dir string) {
	t.Helper()
	t.Setenv(EnvCache, t.TempDir())
	dir = t.TempDir()
	for name, text := range map[string]string{
		"go.mod":    "module example.com/m\n\ngo 1.21\n",
		"m.go":      "package m\n",
		"m_test.go": src,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin = filepath.Join(t.TempDir(), "m.test")
	if err := testC(context.Background(), dir, "plain", "example.com/m", []string{"-vet=off"}, bin); err != nil {
		t.Fatal(err)
	}
	return bin, dir
}

// TestRunTests runs tests in one process and gets, for each, what RunTest
// gets running it alone: a pass, a failure, a skip (a pass), a failure by
// a panic (the tests after it do not run: no entry), and a hang killed at
// its bound (a failure).
func TestRunTests(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	bin, dir := buildTests(t, `package m

import (
	"testing"
	"time"
)

func TestPass(t *testing.T) {}
func TestFail(t *testing.T) { t.Error("no") }
func TestSkip(t *testing.T) { t.Skip("later") }
func TestSub(t *testing.T) { t.Run("a", func(t *testing.T) {}) }
func TestHang(t *testing.T) { time.Sleep(time.Hour) }
func TestPanic(t *testing.T) { panic("boom") }
func TestAfterPanic(t *testing.T) {}
`)
	ctx := context.Background()
	const bound = 2 * time.Second
	all := []string{"TestPass", "TestFail", "TestSkip", "TestSub"}
	got, clean := RunTests(ctx, bin, dir, all, nil, bound)
	want := map[string]bool{"TestPass": true, "TestFail": false, "TestSkip": true, "TestSub": true}
	for _, test := range all {
		if v, ok := got[test]; !ok || v != want[test] {
			t.Errorf("%s: passed %v (ran to an end line: %v), want %v", test, v, ok, want[test])
		}
		if alone := RunTest(ctx, bin, dir, test, nil, bound).Passed; alone != want[test] {
			t.Errorf("%s alone: passed %v, want %v", test, alone, want[test])
		}
	}
	if clean {
		t.Error("clean with a failing test")
	}
	if len(got) != len(all) {
		t.Errorf("verdicts %v: a subtest counted as a test", got)
	}
	got, clean = RunTests(ctx, bin, dir, []string{"TestPass", "TestSkip"}, nil, bound)
	if !clean || !got["TestPass"] || !got["TestSkip"] {
		t.Errorf("passing tests: %v, clean %v; want both passed, clean", got, clean)
	}
	start := time.Now()
	got, clean = RunTests(ctx, bin, dir, []string{"TestHang", "TestPanic", "TestAfterPanic"}, nil, bound)
	if v, ok := got["TestHang"]; !ok || v {
		t.Errorf("TestHang: passed %v (verdict: %v), want a failure at the bound", v, ok)
	}
	if _, ok := got["TestPanic"]; ok {
		t.Errorf("TestPanic has a verdict %v after the process was killed in TestHang", got["TestPanic"])
	}
	if clean || time.Since(start) > 20*bound {
		t.Errorf("a hang: clean %v after %v", clean, time.Since(start))
	}
	got, _ = RunTests(ctx, bin, dir, []string{"TestPanic", "TestAfterPanic"}, nil, bound)
	if v, ok := got["TestPanic"]; !ok || v {
		t.Errorf("TestPanic: passed %v (verdict: %v), want a failure", v, ok)
	}
	if _, ok := got["TestAfterPanic"]; ok {
		t.Error("TestAfterPanic has a verdict, but the panic ended the process before it")
	}
}

// TestRunTestsMainFails: a TestMain that fails the process after the
// tests passed (a leak check) makes the run unclean, as RunTest fails
// each test alone.
func TestRunTestsMainFails(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	bin, dir := buildTests(t, `package m

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	m.Run()
	os.Exit(3)
}

func TestPass(t *testing.T) {}
func TestAlso(t *testing.T) {}
`)
	ctx := context.Background()
	got, clean := RunTests(ctx, bin, dir, []string{"TestPass", "TestAlso"}, nil, time.Minute)
	if clean {
		t.Errorf("clean although the process exited 3 (verdicts %v)", got)
	}
	if RunTest(ctx, bin, dir, "TestPass", nil, time.Minute).Passed {
		t.Error("TestPass alone passed: the exit status of TestMain is not what RunTest sees")
	}
}

// TestTestsOnce: a TestMain that calls m.Run more than once (pogreb's,
// once per file system) lists its tests as often; Tests names each once,
// in the order the binary runs them.
func TestTestsOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	bin, dir := buildTests(t, `package m

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	for i := 0; i < 3; i++ {
		if code := m.Run(); code != 0 {
			os.Exit(code)
		}
	}
	os.Exit(0)
}

func TestB(t *testing.T) {}
func TestA(t *testing.T) {}
`)
	b := &Build{Binaries: map[string]string{"example.com/m": bin}, Dirs: map[string]string{"example.com/m": dir}}
	got, err := b.Tests(context.Background(), "example.com/m", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != "TestB" || got[1] != "TestA" {
		t.Errorf("Tests = %q, want [TestB TestA]", got)
	}
	if order := b.InRunOrder(context.Background(), "example.com/m", []string{"TestA", "TestB"}); len(order) != 2 || order[0] != "TestB" {
		t.Errorf("InRunOrder = %q, want [TestB TestA]", order)
	}
}
