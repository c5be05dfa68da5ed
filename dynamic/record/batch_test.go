package record_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/record"
	"github.com/pecanvet/pecanvet/dynamic/rt"
	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// TestRecordBatch records a package's tests in one process and checks
// what it vouches for: each passing test's own trace, as the test alone
// gives it; not a test that paused for t.Parallel, nor one with no trace
// (its *testing.T has no name), nor one that panicked, nor the last to
// run that failed (its output could go on with a panic's); one that
// failed before another started is vouched for, with its output; the
// tests after a panic or a hang run in another process, and a hang is
// cut at the timeout; a test rt ended as hung (every goroutine blocked)
// or stalled (a net.Pipe read no one writes) is vouched for, its trace
// marked.
func TestRecordBatch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir := writeModule(t, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.24\n",
		"counter.go": counter,
		"counter_test.go": `package counter

import (
	"net"
	"testing"
	"time"
)

` + workSrc + `
func TestA(t *testing.T)        { work(&Counter{}) }
func TestFail(t *testing.T)     { work(&Counter{}); t.Error("fails") }
func TestParallel(t *testing.T) { t.Parallel(); work(&Counter{}) }
func TestNoName(*testing.T)     { work(&Counter{}) }
func TestPanic(t *testing.T)    { work(&Counter{}); panic("boom") }
func TestB(t *testing.T)        { work(&Counter{}); work(&Counter{}) }
func TestHang(t *testing.T)     { work(&Counter{}); time.Sleep(time.Hour) }
func TestC(t *testing.T)        { TestA(t); t.Run("sub", TestA) }
func TestStuck(t *testing.T)    { work(&Counter{}); <-make(chan int) }
func TestD(t *testing.T)        { work(&Counter{}) }
func TestPipe(t *testing.T)     { work(&Counter{}); a, _ := net.Pipe(); a.Read(make([]byte, 1)) }
func TestFailLast(t *testing.T) { work(&Counter{}); t.Error("fails last") }
`,
	})
	ctx := context.Background()
	b, err := record.NewBuild(ctx, record.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	const pkg = "example.com/m"
	tests := []string{"TestA", "TestFail", "TestParallel", "TestNoName", "TestPanic", "TestB", "TestHang", "TestC", "TestStuck", "TestD", "TestPipe", "TestFailLast"}
	out := map[string]chan record.BatchResult{}
	for _, n := range tests {
		out[n] = make(chan record.BatchResult, 1)
	}
	tdir := t.TempDir()
	start := time.Now()
	hang := []string{rt.EnvHang + "=500"}
	// Given in another order than the binary runs them (the check puts
	// the tests reaching a static candidate first): the batch runs them
	// in the binary's order all the same.
	reversed := slices.Clone(tests)
	slices.Reverse(reversed)
	b.RecordBatch(ctx, pkg, reversed, tdir, 3*time.Second, hang, out)
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the batch took %v", d)
	}
	type want struct {
		ok, passed bool
		events     int // at least
		truncated  string
	}
	for name, w := range map[string]want{
		"TestA":        {true, true, 10, ""},
		"TestFail":     {true, false, 10, ""},
		"TestParallel": {false, false, 0, ""},
		"TestNoName":   {false, false, 0, ""},
		"TestPanic":    {false, false, 0, ""},
		"TestB":        {true, true, 20, ""},
		"TestHang":     {true, false, 10, "timed out"},
		"TestC":        {true, true, 20, ""},
		"TestStuck":    {true, false, 10, "hung: "},    // rt ends the process (rt/hang.go), its trace whole
		"TestD":        {true, true, 10, ""},           // in a new process
		"TestPipe":     {true, false, 10, "stalled: "}, // rt ends it after the soft bound
		"TestFailLast": {false, false, 0, ""},
	} {
		r := <-out[name]
		if r.OK != w.ok {
			t.Errorf("%s: ok %v, want %v (%+v)", name, r.OK, w.ok, r.Test)
			continue
		}
		if !r.OK {
			continue
		}
		if name == "TestFail" && !strings.Contains(r.Test.Output, "counter_test.go") {
			t.Errorf("TestFail: output %q does not say where it failed", r.Test.Output)
		}
		if r.Test.Passed != w.passed || r.Test.Events < w.events || !strings.Contains(r.Test.Truncated, w.truncated) {
			t.Errorf("%s: passed %v, %d events, truncated %q; want %v, ≥%d, %q", name, r.Test.Passed, r.Test.Events, r.Test.Truncated, w.passed, w.events, w.truncated)
		}
		// Its own only: the main goroutine (which forks the test's, see
		// rt.TestFork), the test's and the one it starts.
		if (r.Test.Goroutines != 3 || r.Test.Active != 2) && name != "TestB" && name != "TestC" {
			t.Errorf("%s: %d goroutines, %d active, want 3 and 2 (its own only)", name, r.Test.Goroutines, r.Test.Active)
		}
		if filepath.Dir(r.Test.Trace) != tdir {
			t.Errorf("%s: trace %s not in %s", name, r.Test.Trace, tdir)
		}
	}
	// The same test recorded alone (from its start, TestEnv) gives as
	// many events as in the batch.
	alone := b.RecordTest(ctx, pkg, "TestB", filepath.Join(t.TempDir(), "b.trace"), 10*time.Second)
	if alone.Events < 20 || alone.Goroutines != 4 {
		t.Errorf("TestB alone: %d events, %d goroutines", alone.Events, alone.Goroutines)
	}
	// A test stuck for good ends at once (well before its timeout), its
	// trace kept and marked.
	start = time.Now()
	stuck := b.RecordTestEnv(ctx, pkg, "TestStuck", filepath.Join(t.TempDir(), "s.trace"), time.Minute, hang)
	if stuck.Passed || stuck.TimedOut || stuck.Events < 10 || !strings.HasPrefix(stuck.Truncated, "hung: ") || time.Since(start) > 30*time.Second {
		t.Errorf("TestStuck alone: passed %v, timed out %v, %d events, truncated %q, in %v", stuck.Passed, stuck.TimedOut, stuck.Events, stuck.Truncated, time.Since(start))
	}
	// Its trace names the operation the test hung in (rt's observeHung),
	// for check to replay the hang (check/observedhang.go).
	if tr, err := trace.ReadFile(stuck.Trace, trace.ReadOptions{}); err != nil {
		t.Errorf("TestStuck alone: %v", err)
	} else if len(tr.Blocked) != 1 || tr.Blocked[0].Op != trace.Recv || tr.Goroutines[tr.Blocked[0].G] != "g1.1" || !strings.Contains(tr.Sites[tr.Blocked[0].Site], "counter_test.go:24:") {
		t.Errorf("TestStuck alone: blocked operations %+v (goroutines %q, sites %q), want g1.1's receive at counter_test.go:24", tr.Blocked, tr.Goroutines, tr.Sites)
	}
	// A test with no TestStart falls back to recording from process
	// start, and says so in TestEnv.
	noName := b.RecordTest(ctx, pkg, "TestNoName", filepath.Join(t.TempDir(), "n.trace"), 10*time.Second)
	if noName.Events < 10 || len(b.TestEnv(pkg, "TestNoName")) != 0 || len(b.TestEnv(pkg, "TestA")) != 1 {
		t.Errorf("TestNoName alone: %d events; TestEnv %q, %q", noName.Events, b.TestEnv(pkg, "TestNoName"), b.TestEnv(pkg, "TestA"))
	}
}

// TestChildUnrecorded: a test that runs its own binary again, with its
// environment (as x/sync's singleflight does to see a panic crash the
// program), gets a readable trace of its own process only: the child
// neither writes the parent's trace file nor follows its schedule.
func TestChildUnrecorded(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir := writeModule(t, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.24\n",
		"counter.go": counter,
		"counter_test.go": `package counter

import (
	"os"
	"os/exec"
	"testing"
)

` + workSrc + `
func TestParent(t *testing.T) {
	if os.Getenv("CHILD") != "" {
		for i := 0; i < 200; i++ {
			work(&Counter{})
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestParent$")
	cmd.Env = append(os.Environ(), "CHILD=1")
	work(&Counter{})
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	work(&Counter{})
}
`,
	})
	ctx := context.Background()
	b, err := record.NewBuild(ctx, record.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	r := b.RecordTest(ctx, "example.com/m", "TestParent", filepath.Join(t.TempDir(), "p.trace"), time.Minute)
	if !r.Passed || r.Truncated != "" || r.Events < 20 || r.Events > 200 {
		t.Errorf("passed %v, truncated %q, %d events; want a whole trace of the parent's two calls", r.Passed, r.Truncated, r.Events)
	}
}

// orderSrc is a test whose goroutine writes a while its parent goes on
// to write b: which comes first is the recording's fork order.
const orderSrc = `package m

import "testing"

var a, b int

func TestOrder(t *testing.T) {
	done := make(chan bool, 1)
	go func() {
		a = 1 // the child's write
		done <- true
	}()
	b = 2 // the parent's next operation
	<-done
}
`

// recordOrder records orderSrc's TestOrder three times under env and
// passes each run's recording and the events of the child's and the
// parent's first writes (-1: none) to check.
func recordOrder(t *testing.T, env []string, check func(run int, r record.Test, child, parent int)) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir := writeModule(t, map[string]string{
		"go.mod":    "module example.com/m\n\ngo 1.24\n",
		"m_test.go": orderSrc,
	})
	ctx := context.Background()
	b, err := record.NewBuild(ctx, record.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for i := 0; i < 3; i++ {
		path := filepath.Join(t.TempDir(), "p.trace")
		r := b.RecordTestEnv(ctx, "example.com/m", "TestOrder", path, time.Minute, env)
		if !r.Passed {
			t.Fatalf("run %d failed:\n%s", i, r.Output)
		}
		tr, err := trace.ReadFile(path, trace.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		child, parent := -1, -1
		for k, e := range tr.Events {
			if e.Op == trace.Write && tr.Goroutines[e.G] == "g1.1.1" && child < 0 {
				child = k
			}
			if e.Op == trace.Write && tr.Goroutines[e.G] == "g1.1" && parent < 0 {
				parent = k
			}
		}
		check(i, r, child, parent)
	}
}

// TestChildrenFirst: a perturbed recording with an odd seed lets a
// goroutine run before its parent goes on past the go statement (the
// parent yields at its next operation), where an ordinary run tends to
// go on in the parent; Go's TestRaceNestedArrayCopy showed its race only
// in that order.
func TestChildrenFirst(t *testing.T) {
	recordOrder(t, []string{"PECANVET_PERTURB=1"}, func(i int, r record.Test, child, parent int) {
		if child < 0 || parent < 0 || child > parent {
			t.Errorf("run %d: the child's write is event %d, the parent's %d; want the child's first", i, child, parent)
		}
	})
}

// TestParentsFirst: under an odd seed with rt.EnvParentsFirst, a child
// begins only once its parent paused (here: its receive, which waits for
// the child), so the parent's write after the go statement comes first in
// every run, the order a children-first seed reverses (TestChildrenFirst).
// The parent's operations before its pause all count before the child's
// begin (Test.RunOnBefore).
func TestParentsFirst(t *testing.T) {
	recordOrder(t, []string{"PECANVET_PERTURB=1", "PECANVET_PARENTS_FIRST=1"}, func(i int, r record.Test, child, parent int) {
		if child < 0 || parent < 0 || parent > child {
			t.Errorf("run %d: the child's write is event %d, the parent's %d; want the parent's first", i, child, parent)
		}
		if r.RunOnBefore == 0 || r.RunOnAfter != 0 {
			t.Errorf("run %d: the parent ran %d operations before its pause and the child's begin, %d after the begin; want some, 0", i, r.RunOnBefore, r.RunOnAfter)
		}
	})
}

// recordBubble records TestBubble of a module of the one test file src
// (Go 1.25, for testing/synctest) under env, and fails unless it passes
// well within its 30 s bound: inside a bubble time.Now stands still while
// a goroutine yields, so a wait bounded by the clock spins to the bound.
func recordBubble(t *testing.T, src string, env []string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir := writeModule(t, map[string]string{
		"go.mod":    "module example.com/m\n\ngo 1.25\n",
		"m_test.go": src,
	})
	ctx := context.Background()
	b, err := record.NewBuild(ctx, record.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	start := time.Now()
	r := b.RecordTestEnv(ctx, "example.com/m", "TestBubble", filepath.Join(t.TempDir(), "p.trace"), 30*time.Second, env)
	if !r.Passed || r.TimedOut {
		t.Fatalf("the recording did not pass (timed out %v) in %v:\n%s", r.TimedOut, time.Since(start), r.Output)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the recording took %v", d)
	}
}

// TestParentsFirstBubble: a child recorded parents first whose parent
// waits in synctest.Wait (no pause rt sees) lets go of its parent after
// its bounded wait: inside the bubble time.Now stands still while the
// child yields, so a clock deadline never came and the recording spun to
// its timeout (gammazero/workerpool's TestDoWaitStop).
func TestParentsFirstBubble(t *testing.T) {
	recordBubble(t, `package m

import (
	"testing"
	"testing/synctest"
)

var a int

func TestBubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		go func() { a = 1 }()
		synctest.Wait() // until the child has ended: no pause rt sees
		if a != 1 {
			t.Error("the child did not run")
		}
	})
}
`, []string{"PECANVET_PERTURB=1", "PECANVET_PARENTS_FIRST=1"})
}

// TestWakeOrderBubble: sleepers in a synctest bubble are left to its
// fake clock (rt's wake order is off there): the 8 ms sleeper does not
// wait for the 4 ms one, which after its sleep blocks where rt does not
// see (an io.Pipe read) until the 8 ms one writes. Inside the bubble
// time.Now stands still while a goroutine yields, so a wait bounded by
// the clock spun to the recording's timeout.
func TestWakeOrderBubble(t *testing.T) {
	recordBubble(t, `package m

import (
	"io"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func TestBubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, w := io.Pipe()
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			time.Sleep(4 * time.Millisecond)
			r.Read(make([]byte, 1)) // no pause rt sees
		}()
		go func() {
			defer wg.Done()
			time.Sleep(8 * time.Millisecond)
			w.Write([]byte{1})
		}()
		wg.Wait()
	})
}
`, nil)
}

// TestNoWatcherAfterTests: a TestMain that checks for leaked goroutines
// after m.Run (as go.uber.org/goleak's VerifyTestMain does), or a test
// that checks at its end (goleak.VerifyNone, gocron's tests), finds none
// of the recorder's, whether the test was recorded alone or in a batch.
func TestNoWatcherAfterTests(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir := writeModule(t, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.24\n",
		"counter.go": counter,
		"counter_test.go": `package counter

import (
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

` + workSrc + `
// watcherGone waits up to 500ms for a look at the goroutines that finds
// none of the hang watcher's, as goleak retries.
func watcherGone() bool {
	buf := make([]byte, 1<<20)
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		n := runtime.Stack(buf, true)
		if !strings.Contains(string(buf[:n]), "hangWatcher") && !strings.Contains(string(buf[:n]), "hangLook") && !strings.Contains(string(buf[:n]), "(*hangWatch).look") {
			return true
		}
		if time.Since(start) > 500*time.Millisecond {
			return false
		}
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if !watcherGone() {
		println("leaked: the hang watcher")
		os.Exit(7)
	}
	os.Exit(code)
}

func TestA(t *testing.T) { work(&Counter{}) }

// TestB checks within the test, as goleak.VerifyNone deferred does.
func TestB(t *testing.T) {
	work(&Counter{})
	if !watcherGone() {
		t.Fatal("the hang watcher's goroutine is there during the test")
	}
}
`,
	})
	ctx := context.Background()
	b, err := record.NewBuild(ctx, record.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, name := range []string{"TestA", "TestB"} {
		r := b.RecordTest(ctx, "example.com/m", name, filepath.Join(t.TempDir(), "a.trace"), time.Minute)
		if !r.Passed || r.Events == 0 {
			t.Errorf("%s alone: passed %v, %d events:\n%s", name, r.Passed, r.Events, r.Output)
		}
	}
	out := map[string]chan record.BatchResult{"TestA": make(chan record.BatchResult, 1), "TestB": make(chan record.BatchResult, 1)}
	b.RecordBatch(ctx, "example.com/m", []string{"TestA", "TestB"}, t.TempDir(), time.Minute, nil, out)
	for name, ch := range out {
		res := <-ch
		if !res.Test.Passed {
			t.Errorf("batch: %s did not pass:\n%s", name, res.Test.Output)
		}
	}
}

// TestRecordStalled: a test whose goroutines all wait, one on a channel
// of uninstrumented code that nothing will ever send on (a net.Pipe read,
// as ratelimit's TestSlack sleeping on a mock clock no one moves), is
// ended after the soft bound (three times the hang bound), its trace
// kept and marked "stalled", not at its timeout; a test that sleeps in
// the meantime is not.
func TestRecordStalled(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir := writeModule(t, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.24\n",
		"counter.go": counter,
		"counter_test.go": `package counter

import (
	"net"
	"testing"
	"time"
)

` + workSrc + `
func TestStalled(t *testing.T) {
	work(&Counter{})
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	a.Read(make([]byte, 1))
}

func TestSleeps(t *testing.T) {
	work(&Counter{})
	time.Sleep(3 * time.Second)
}
`,
	})
	ctx := context.Background()
	b, err := record.NewBuild(ctx, record.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	const pkg = "example.com/m"
	hang := []string{rt.EnvHang + "=300"} // stalled after 900 ms
	start := time.Now()
	st := b.RecordTestEnv(ctx, pkg, "TestStalled", filepath.Join(t.TempDir(), "s.trace"), time.Minute, hang)
	if st.Passed || st.TimedOut || st.Events < 10 || !strings.HasPrefix(st.Truncated, "stalled: ") || !strings.Contains(st.Truncated, "pipe.go") || time.Since(start) > 30*time.Second {
		t.Errorf("TestStalled: passed %v, timed out %v, %d events, truncated %q, in %v", st.Passed, st.TimedOut, st.Events, st.Truncated, time.Since(start))
	}
	sl := b.RecordTestEnv(ctx, pkg, "TestSleeps", filepath.Join(t.TempDir(), "t.trace"), time.Minute, hang)
	if !sl.Passed || sl.Truncated != "" {
		t.Errorf("TestSleeps: passed %v, truncated %q", sl.Passed, sl.Truncated)
	}
}

// TestRecordBatchQuietHang: a process that goes quiet with no sequential
// test running (here a parallel test resumed after the last sequential one,
// asleep) is killed at the timeout, not left to run: the tests that ended
// keep their traces, the parallel one is not vouched for.
func TestRecordBatchQuietHang(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir := writeModule(t, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.24\n",
		"counter.go": counter,
		"counter_test.go": `package counter

import (
	"testing"
	"time"
)

` + workSrc + `
func TestA(t *testing.T)       { work(&Counter{}) }
func TestSleepy(t *testing.T)  { t.Parallel(); time.Sleep(time.Hour) }
func TestB(t *testing.T)       { work(&Counter{}) }
`,
	})
	ctx := context.Background()
	b, err := record.NewBuild(ctx, record.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	const pkg = "example.com/m"
	tests := []string{"TestA", "TestSleepy", "TestB"}
	out := map[string]chan record.BatchResult{}
	for _, n := range tests {
		out[n] = make(chan record.BatchResult, 1)
	}
	// The paused test is not vouched for as soon as it pauses, not when
	// the process ends (its recording alone can start at once).
	sleepy := make(chan time.Time, 1)
	go func() {
		r := <-out["TestSleepy"]
		if r.OK {
			t.Errorf("TestSleepy: ok, want not (%+v)", r.Test)
		}
		sleepy <- time.Now()
	}()
	start := time.Now()
	b.RecordBatch(ctx, pkg, tests, t.TempDir(), 2*time.Second, nil, out)
	end := time.Now()
	if d := end.Sub(start); d > 30*time.Second {
		t.Errorf("the batch took %v", d)
	}
	if at := <-sleepy; end.Sub(at) < time.Second {
		t.Errorf("TestSleepy's result came %v before the batch's end (quiet for 2s after it paused); want it when it paused", end.Sub(at))
	}
	for name, ok := range map[string]bool{"TestA": true, "TestB": true} {
		if r := <-out[name]; r.OK != ok {
			t.Errorf("%s: ok %v, want %v (%+v)", name, r.OK, ok, r.Test)
		}
	}
}

// TestRecordHardHang: a test whose goroutines all wait in recorded
// operations, no timer pending, is called hung after a fifth of the hang
// bound (rt/hang.go's hardHangAfter), not the whole bound; one that waits
// the same way for a timer the test made (time.After) is not, though its
// wait outlasts that fifth.
func TestRecordHardHang(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir := writeModule(t, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.24\n",
		"counter.go": counter,
		"counter_test.go": `package counter

import (
	"testing"
	"time"
)

` + workSrc + `
func TestStuck(t *testing.T) {
	work(&Counter{})
	ch := make(chan int)
	go func() { <-ch }()
	<-ch
}

func TestTimer(t *testing.T) {
	work(&Counter{})
	done := make(chan int)
	go func() { <-time.After(3 * time.Second); close(done) }()
	<-done
}
`,
	})
	ctx := context.Background()
	b, err := record.NewBuild(ctx, record.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	const pkg = "example.com/m"
	// A 30 s bound: a fifth of it, 6 s, is what the fast call may take,
	// however loaded the machine.
	hang := []string{rt.EnvHang + "=30000"}
	start := time.Now()
	st := b.RecordTestEnv(ctx, pkg, "TestStuck", filepath.Join(t.TempDir(), "s.trace"), time.Minute, hang)
	if d := time.Since(start); st.Passed || st.TimedOut || !strings.HasPrefix(st.Truncated, "hung: ") || d > 20*time.Second {
		t.Errorf("TestStuck: passed %v, timed out %v, truncated %q, in %v; want hung well before the 30 s bound", st.Passed, st.TimedOut, st.Truncated, d)
	}
	// A 5 s bound, its fifth 1 s: the timer, due at 3 s, ends the wait.
	tm := b.RecordTestEnv(ctx, pkg, "TestTimer", filepath.Join(t.TempDir(), "t.trace"), time.Minute, []string{rt.EnvHang + "=5000"})
	if !tm.Passed || tm.Truncated != "" {
		t.Errorf("TestTimer: passed %v, truncated %q; want it to pass (its timer was pending)", tm.Passed, tm.Truncated)
	}
}

// TestRecordCapped: a test whose recording reaches the Recorder's
// MaxEvents is ended there (rt.endCapped), in a batch and alone, well
// before its own end or its timeout: its trace is kept, marked cut, and
// vouched for (record.EndedAtCap), and the tests after it run in a new
// process.
func TestRecordCapped(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir := writeModule(t, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.24\n",
		"counter.go": counter,
		"counter_test.go": `package counter

import (
	"testing"
	"time"
)

` + workSrc + `
func TestA(t *testing.T) { work(&Counter{}) }
func TestLoop(t *testing.T) {
	for end := time.Now().Add(time.Minute); time.Now().Before(end); {
		work(&Counter{})
	}
}
func TestB(t *testing.T) { work(&Counter{}) }
`,
	})
	ctx := context.Background()
	b, err := record.NewBuild(ctx, record.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	b.MaxEvents = 2000
	const pkg = "example.com/m"
	tests := []string{"TestA", "TestLoop", "TestB"}
	out := map[string]chan record.BatchResult{}
	for _, n := range tests {
		out[n] = make(chan record.BatchResult, 1)
	}
	start := time.Now()
	b.RecordBatch(ctx, pkg, tests, t.TempDir(), 2*time.Minute, nil, out)
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the batch took %v", d)
	}
	for _, n := range tests {
		r := <-out[n]
		capped := n == "TestLoop"
		switch {
		case !r.OK:
			t.Errorf("%s: not vouched for (%+v)", n, r.Test)
		case capped && (r.Test.Passed || r.Test.Events != 2000 || !strings.HasPrefix(r.Test.Truncated, "cut at 2000 events") || !record.EndedAtCap(r.Test)):
			t.Errorf("%s: passed %v, %d events, truncated %q; want failed, 2000, cut at 2000 events", n, r.Test.Passed, r.Test.Events, r.Test.Truncated)
		case !capped && (!r.Test.Passed || r.Test.Truncated != "" || record.EndedAtCap(r.Test)):
			t.Errorf("%s: passed %v, truncated %q", n, r.Test.Passed, r.Test.Truncated)
		}
	}
	start = time.Now()
	alone := b.RecordTest(ctx, pkg, "TestLoop", filepath.Join(t.TempDir(), "loop.trace"), 2*time.Minute)
	if d := time.Since(start); d > 30*time.Second || !record.EndedAtCap(alone) || alone.Events != 2000 {
		t.Errorf("TestLoop alone: %v, passed %v, %d events, truncated %q", d, alone.Passed, alone.Events, alone.Truncated)
	}
}

// TestRecordBatchPausedSubtest: a test whose subtest pauses for
// t.Parallel is declined as soon as the subtest pauses (the subtest runs
// after the test function returned, where its trace ends), not at the
// test's end, so that its recording alone can start at once.
func TestRecordBatchPausedSubtest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir := writeModule(t, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.24\n",
		"counter.go": counter,
		"counter_test.go": `package counter

import (
	"testing"
	"time"
)

` + workSrc + `
func TestA(t *testing.T) { work(&Counter{}) }
func TestSubs(t *testing.T) {
	t.Run("slow", func(t *testing.T) { t.Parallel(); time.Sleep(2 * time.Second) })
	work(&Counter{})
}
func TestB(t *testing.T) { work(&Counter{}) }
`,
	})
	ctx := context.Background()
	b, err := record.NewBuild(ctx, record.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	const pkg = "example.com/m"
	tests := []string{"TestA", "TestSubs", "TestB"}
	out := map[string]chan record.BatchResult{}
	for _, n := range tests {
		out[n] = make(chan record.BatchResult, 1)
	}
	subs := make(chan time.Time, 1)
	go func() {
		r := <-out["TestSubs"]
		if r.OK {
			t.Errorf("TestSubs: ok, want not (%+v)", r.Test)
		}
		subs <- time.Now()
	}()
	b.RecordBatch(ctx, pkg, tests, t.TempDir(), time.Minute, nil, out)
	end := time.Now()
	if at := <-subs; end.Sub(at) < time.Second {
		t.Errorf("TestSubs's result came %v before the batch's end (its subtest sleeps 2s after it paused); want it when the subtest paused", end.Sub(at))
	}
	for name, ok := range map[string]bool{"TestA": true, "TestB": true} {
		if r := <-out[name]; r.OK != ok {
			t.Errorf("%s: ok %v, want %v (%+v)", name, r.OK, ok, r.Test)
		}
	}
}

// TestRecordBatchLeftover: a goroutine an earlier test of the batch left
// running (timedmap's tests each leave a cleaner ticking every 10 ms) is
// not recorded into a later test's trace. Named as a root there, it took
// g1 or g2 from the test's own goroutines, and a replay, which runs the
// test alone, waited for it at step 1 ("g2 has not started").
func TestRecordBatchLeftover(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir := writeModule(t, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.24\n",
		"counter.go": counter,
		"counter_test.go": `package counter

import (
	"testing"
	"time"
)

` + workSrc + `
func TestA(t *testing.T) {
	c := &Counter{}
	work(c)
	go func() {
		for range time.Tick(2 * time.Millisecond) {
			c.Inc()
			go func() {
				time.Sleep(25 * time.Millisecond)
				c.Inc()
			}()
		}
	}()
	// Between the two recordings the ticker starts goroutines too, which
	// run on into TestB.
	t.Cleanup(func() { time.Sleep(20 * time.Millisecond) })
	time.Sleep(10 * time.Millisecond)
}
func TestB(t *testing.T) {
	for end := time.Now().Add(50 * time.Millisecond); time.Now().Before(end); {
	}
	work(&Counter{})
}
`,
	})
	ctx := context.Background()
	b, err := record.NewBuild(ctx, record.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	tests := []string{"TestA", "TestB"}
	out := map[string]chan record.BatchResult{}
	for _, n := range tests {
		out[n] = make(chan record.BatchResult, 1)
	}
	b.RecordBatch(ctx, "example.com/m", tests, t.TempDir(), time.Minute, nil, out)
	for _, n := range tests {
		r := <-out[n]
		if !r.OK || !r.Test.Passed {
			t.Fatalf("%s: not vouched for or failed (%+v)", n, r.Test)
		}
		tr, err := trace.ReadFile(r.Test.Trace, trace.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		names := map[string]int{}
		for _, e := range tr.Events {
			names[tr.Goroutines[e.G]]++
		}
		// The test function runs as g1.1, work's goroutine is g1.1.1;
		// TestA's ticker (g1.1.2) ticks while it sleeps. TestB's trace
		// names its own goroutines only: no root for the ticker (g2), nor
		// for the goroutines the ticker starts, during TestB or between
		// the two recordings (named p1, p2, ... before: TestA's cleanup
		// sleeps 20 ms; a CI run under load met them without it).
		want := map[string]bool{"g1": true, "g1.1": true, "g1.1.1": true}
		if n == "TestA" {
			want["g1.1.2"] = true
		}
		for g := range want {
			if names[g] == 0 {
				t.Errorf("%s: no event of %s; events by goroutine: %v", n, g, names)
			}
		}
		for g := range names {
			if n == "TestB" && !want[g] {
				t.Errorf("%s: goroutine %s (%d events) is none of the test's: events by goroutine: %v", n, g, names[g], names)
			}
		}
	}
}

// TestRecordBatchInitGoroutine: a goroutine that package initialization
// starts (ants' default pool, a package-level variable whose constructor
// starts a purger and a clock goroutine on tickers) is named apart from
// the test's roots in a trace its ticks fall into: p1, and its children
// p1.1, p1.2, ... (trace.PreRoot), so that a replay lets it go rather
// than wait for it. Named g2 before, it was a root like any other, and a
// replay, whose tickers made before it run on the real clock, waited for
// its tick in vain ("g2 has not started").
func TestRecordBatchInitGoroutine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir := writeModule(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.24\n",
		"counter.go": `package counter

import (
	"sync"
	"time"
)

type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

var shared = ticking()

func ticking() *Counter {
	c := &Counter{}
	go func() {
		for range time.Tick(time.Millisecond) {
			c.Inc()
			go c.Inc()
		}
	}()
	return c
}
`,
		"counter_test.go": `package counter

import (
	"testing"
	"time"
)

` + workSrc + `
func TestA(t *testing.T) {
	work(&Counter{})
	shared.Inc()
	time.Sleep(20 * time.Millisecond)
}
`,
	})
	ctx := context.Background()
	b, err := record.NewBuild(ctx, record.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	out := map[string]chan record.BatchResult{"TestA": make(chan record.BatchResult, 1)}
	b.RecordBatch(ctx, "example.com/m", []string{"TestA"}, t.TempDir(), time.Minute, nil, out)
	r := <-out["TestA"]
	if !r.OK || !r.Test.Passed {
		t.Fatalf("TestA: not vouched for or failed (%+v)", r.Test)
	}
	tr, err := trace.ReadFile(r.Test.Trace, trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]int{}
	for _, e := range tr.Events {
		names[tr.Goroutines[e.G]]++
	}
	// The test function runs as g1.1, work's goroutine is g1.1.1; the
	// ticker's goroutine ticks about 20 times while the test sleeps.
	want := map[string]bool{"g1": true, "g1.1": true, "g1.1.1": true, "p1": true}
	for g := range want {
		if names[g] == 0 {
			t.Errorf("no event of %s; events by goroutine: %v", g, names)
		}
	}
	var others []string
	for g := range names {
		if !want[g] && !strings.HasPrefix(g, "p1.") {
			others = append(others, g)
		}
	}
	if len(others) > 0 {
		slices.Sort(others)
		t.Errorf("%d goroutines neither the test's nor the init ticker's (p1, p1.N), first %s (%d events)", len(others), others[0], names[others[0]])
	}
}

// TestRecordBatchRunTwice: a TestMain that calls m.Run more than once
// (pogreb's runs every test once per file system) runs each test again in
// the batch's process. The batch sends each test's result once, on a
// channel that holds one, and returns (a second send blocked with the
// batch's lock held, and go vet ended in "all goroutines are asleep");
// each trace is the test's first run's, the one a recording alone starts
// with, not written over by the later runs (which do no work here).
func TestRecordBatchRunTwice(t *testing.T) {
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
)

` + workSrc + `
var round int

func TestMain(m *testing.M) {
	for round = 1; round <= 3; round++ {
		if code := m.Run(); code != 0 {
			os.Exit(code)
		}
	}
	os.Exit(0)
}

func works() {
	if round == 1 {
		work(&Counter{})
	}
}

func TestA(t *testing.T) { works() }
func TestB(t *testing.T) { works() }
`,
	})
	ctx := context.Background()
	b, err := record.NewBuild(ctx, record.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	const pkg = "example.com/m"
	out := map[string]chan record.BatchResult{"TestA": make(chan record.BatchResult, 1), "TestB": make(chan record.BatchResult, 1)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		b.RecordBatch(ctx, pkg, []string{"TestA", "TestB"}, t.TempDir(), time.Minute, nil, out)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("the batch did not return: a test's result sent again blocks it")
	}
	for _, name := range []string{"TestA", "TestB"} {
		r := <-out[name]
		if !r.OK || !r.Test.Passed {
			t.Errorf("%s: ok %v, passed %v:\n%s", name, r.OK, r.Test.Passed, r.Test.Output)
			continue
		}
		tr, err := trace.ReadFile(r.Test.Trace, trace.ReadOptions{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(tr.Events) < 10 || len(tr.Events) != r.Test.Events {
			t.Errorf("%s: %d events in the batch's trace (%d when sent), want the first run's work, at least 10", name, len(tr.Events), r.Test.Events)
		}
	}
}

// TestRecordBatchOutOfOrder: tests given in another order than the binary
// runs them, as when the binary's list could not be read. The binary
// runs TestPanic first, whose panic ends the process: TestB, first in
// the list, did not start and is recorded in the next process, and
// TestPanic is not run again. Taken as a prefix of the list, TestB got
// no result and its reader waited for ever.
func TestRecordBatchOutOfOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	dir := writeModule(t, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.24\n",
		"counter.go": counter,
		"counter_test.go": `package counter

import "testing"

` + workSrc + `
func TestPanic(t *testing.T) { work(&Counter{}); panic("boom") }
func TestB(t *testing.T)     { work(&Counter{}); work(&Counter{}) }
`,
	})
	ctx := context.Background()
	b, err := record.NewBuild(ctx, record.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	const pkg = "example.com/m"
	out := map[string]chan record.BatchResult{"TestB": make(chan record.BatchResult, 2), "TestPanic": make(chan record.BatchResult, 2)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		b.RecordBatchAsGiven(ctx, pkg, []string{"TestB", "TestPanic"}, t.TempDir(), 10*time.Second, out)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("the batch did not end")
	}
	if n := len(out["TestPanic"]); n != 1 {
		t.Errorf("TestPanic: %d results, want 1", n)
	}
	if n := len(out["TestB"]); n != 1 {
		t.Fatalf("TestB: %d results, want 1", n)
	}
	if r := <-out["TestB"]; !r.OK || !r.Test.Passed || r.Test.Events < 20 {
		t.Errorf("TestB: ok %v, passed %v, %d events; want its recording", r.OK, r.Test.Passed, r.Test.Events)
	}
}
