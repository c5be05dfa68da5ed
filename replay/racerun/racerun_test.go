package racerun

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	out, err := os.ReadFile("testdata/sendlen.out")
	if err != nil {
		t.Fatal(err)
	}
	races := Parse(out, "/src/racetd")
	// Two reports: a race in the package's init (NewLog) and the test's.
	if len(races) != 2 {
		t.Fatalf("%d races, want 2: %+v", len(races), races)
	}
	r := races[1]
	if !r.Has("chan_test.go", 216, "chan_test.go", 222) || !r.Has("chan_test.go", 222, "chan_test.go", 216) {
		t.Errorf("race %+v: want chan_test.go:222 and :216", r)
	}
	if !r.Current.Write || !r.Previous.Write {
		t.Errorf("race %+v: want two writes", r)
	}
	if r.Has("chan_test.go", 216, "chan_test.go", 216) {
		t.Errorf("race %+v matches one site twice", r)
	}
	// The package directory decides the frame: with another directory,
	// the top frame of each stack is taken.
	if rs := Parse(out, "/elsewhere"); len(rs) != 2 || !rs[0].Has("regression_test.go", 23, "regression_test.go", 20) {
		t.Errorf("without the package directory: %+v", rs)
	}
}

func TestParseCut(t *testing.T) {
	out, err := os.ReadFile("testdata/sendlen.out")
	if err != nil {
		t.Fatal(err)
	}
	// A report cut short (no closing line) is dropped; the one before it
	// stays.
	for n := len(out) - 1; n > 0; n-- {
		races := Parse(out[:n], "/src/racetd")
		if len(races) > 2 {
			t.Fatalf("cut at %d: %d races", n, len(races))
		}
	}
}

// TestRun builds a small package with -race and runs it: the race that
// only len(c) "orders" is reported, with both sites.
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with -race")
	}
	dir, bin := buildSendLen(t, "lenrace", "func TestQuiet(t *testing.T) {}\n")
	races, err := Run(context.Background(), bin, dir, []string{"TestSendLen", "TestQuiet"}, 2, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if len(races) != 1 || !races[0].Has("x_test.go", 12, "x_test.go", 18) {
		t.Errorf("races %+v: want one between x_test.go:12 and :18", races)
	}
	races, err = Run(context.Background(), bin, dir, []string{"TestQuiet"}, 2, time.Minute)
	if err != nil || len(races) != 0 {
		t.Errorf("TestQuiet: races %+v, err %v; want none", races, err)
	}
}

// TestRunUntil: a test that hangs after the race was reported does not
// hold RunUntil to its bound once the reports satisfy the caller; Run,
// which asks for everything, waits for it.
func TestRunUntil(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with -race")
	}
	dir, bin := buildSendLen(t, "hangrace", "func TestHang(t *testing.T) { select {} }\n")
	has := func(races []Race) bool {
		for _, r := range races {
			if r.Has("x_test.go", 12, "x_test.go", 18) {
				return true
			}
		}
		return false
	}
	const bound = 40 * time.Second
	start := time.Now()
	races, err := RunUntil(context.Background(), bin, dir, []string{"TestSendLen", "TestHang"}, 2, bound, has)
	if err != nil {
		t.Fatal(err)
	}
	if !has(races) {
		t.Errorf("races %+v: want one between x_test.go:12 and :18", races)
	}
	if d := time.Since(start); d >= bound/2 {
		t.Errorf("RunUntil took %v with its answer in the first run's report (bound %v)", d, bound)
	}
}

// TestRunRounds: the runs after the first go on only as far as the
// first run's time allows. A test that takes 3 s runs once with a second
// of wall for the rest (RunUntil would run it 16 times, to the bound),
// and a quick test still gets its later runs, in a second process: TestNth
// races only in its third run, counted in a file.
func TestRunRounds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with -race")
	}
	dir, bin := buildSendLen(t, "roundrace", "", "y_test.go", `import (
	"os"
	"strconv"
	"testing"
	"time"
)

func TestSlow(t *testing.T) { time.Sleep(3 * time.Second) }

func TestHang(t *testing.T) {
	b, _ := os.ReadFile("h")
	n, _ := strconv.Atoi(string(b))
	n++
	if err := os.WriteFile("h", []byte(strconv.Itoa(n)), 0o644); err != nil {
		t.Fatal(err)
	}
	if n == 2 {
		TestSendLen(t)
		select {} // its second run waits for good
	}
}

func TestNth(t *testing.T) {
	b, _ := os.ReadFile("n")
	n, _ := strconv.Atoi(string(b))
	n++
	if err := os.WriteFile("n", []byte(strconv.Itoa(n)), 0o644); err != nil {
		t.Fatal(err)
	}
	if n == 3 {
		TestSendLen(t)
	}
}
`)
	has := func(races []Race) bool {
		return slices.ContainsFunc(races, func(r Race) bool { return r.Has("x_test.go", 12, "x_test.go", 18) })
	}
	never := func([]Race) bool { return false }
	const bound = 90 * time.Second
	start := time.Now()
	if _, err := RunRounds(context.Background(), bin, dir, []string{"TestSlow"}, 16, bound, time.Second, never); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d >= 30*time.Second {
		t.Errorf("RunRounds ran the 3 s test for %v with 1 s of wall for the runs after the first (bound %v)", d, bound)
	}
	races, err := RunRounds(context.Background(), bin, dir, []string{"TestNth"}, 4, bound, 30*time.Second, has)
	if err != nil {
		t.Fatal(err)
	}
	if !has(races) {
		t.Errorf("races %+v: want TestNth's third run's, between x_test.go:12 and :18", races)
	}
	// A test whose second run hangs: the runs after the first are
	// stopped at their wall and four first rounds more, not at the
	// bound, and keep the race the hanging run reported first. Its wall
	// is 8 s, not 1 s: on a loaded machine the hanging run did not get
	// to print its race within 1 s (races [] once in a CI run at load
	// 10-15), nor within 3 s at load 40.
	start = time.Now()
	races, err = RunRounds(context.Background(), bin, dir, []string{"TestHang"}, 16, bound, 8*time.Second, never)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d >= 30*time.Second {
		t.Errorf("RunRounds waited %v for a hanging second run with 8 s of wall for the runs after the first (bound %v)", d, bound)
	}
	if !has(races) {
		t.Errorf("races %+v: want TestHang's second run's, between x_test.go:12 and :18", races)
	}
}

// buildSendLen writes module mod, whose TestSendLen races on v with only
// len(c) "ordering" it (x_test.go:12 and :18), followed by the tests
// more (and the files named in files, followed by their text after the
// package clause), and builds its tests with -race: the directory and the binary.
func buildSendLen(t *testing.T, mod, more string, files ...string) (dir, bin string) {
	t.Helper()
	dir = t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i+1 < len(files); i += 2 {
		write(files[i], "package "+mod+"\n\n"+files[i+1])
	}
	write("go.mod", "module "+mod+"\n\ngo 1.21\n")
	write("x_test.go", "package "+mod+`

import (
	"runtime"
	"testing"
)

func TestSendLen(t *testing.T) {
	v := 0
	c := make(chan int, 1)
	go func() {
		v = 1
		c <- 1
	}()
	for len(c) == 0 {
		runtime.Gosched()
	}
	v = 2
	_ = v
}

`+more)
	bin = filepath.Join(dir, "x.test")
	cmd := exec.Command("go", "test", "-c", "-race", "-o", bin, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -c -race: %v\n%s", err, out)
	}
	return dir, bin
}

func FuzzParse(f *testing.F) {
	if out, err := os.ReadFile("testdata/sendlen.out"); err == nil {
		f.Add(out)
	}
	f.Add([]byte("WARNING: DATA RACE\nWrite at 0x1 by goroutine 1:\n  f()\n      a.go:1 +0x1\n\nPrevious read at 0x1 by main goroutine:\n  g()\n      a.go:2\n==================\n"))
	f.Fuzz(func(t *testing.T, out []byte) {
		for _, r := range Parse(out, "/src") {
			if r.Current.Line <= 0 || r.Previous.Line <= 0 {
				t.Fatalf("race without a line: %+v", r)
			}
		}
	})
}
