package rt

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Traces that start with the test.
//
// A test's trace holds what happens from the start of the test function
// on. What ran before it (package initialization, a TestMain's code
// before m.Run, earlier tests) happens before the test starts, so it can
// neither race with the test nor be reordered into it, and the trace need
// not hold it. Starting there also makes a test's trace the same whether
// the test ran alone in its process or after others in one process: the
// goroutines are named, and the objects numbered, from the test's start.
//
// The instrumenter makes every test function's first statement
//
//	defer rt.TestStart(t)()
//
// which starts the test's trace and, deferred, drains its goroutines at
// its end (rt.Drain). With PECANVET_FROM_TEST=TestX beside
// PECANVET_TRACE, the process records, and replays its schedule, from
// TestX's start on; calls for other tests (a test calling another test
// function with its own t, or running one as a subtest) change nothing.
// With PECANVET_TRACE_DIR=DIR instead, the process runs many tests one
// after the other and writes each top-level test's trace to
// DIR/<Test>.trace: TestStart of a top-level test starts its trace, and
// the test's end finishes it and writes DIR/<Test>.done to say it is
// complete; between tests nothing is recorded. (A test that pauses for
// t.Parallel runs on after its end, or interleaved with others: the
// driver tells such tests from the test output and records them alone.)
//
// With PECANVET_REPLAY_LIST=FILE, the process replays many schedules, one
// per test run: FILE lists, a line each, a test, a schedule, and the
// verdict and trace files of its replay. The driver runs the listed tests
// (-test.count as often as the most listed one), and each start of a
// top-level test replays that test's next schedule, from the test's start
// as with PECANVET_FROM_TEST. A start with no schedule left skips the
// test. A replay that leaves goroutines it started running past the
// test's end (they might act during the next replay) makes the process
// skip every test after it, and so does a replay that failed (the process
// exits after it, as a replay process does: decide). A process that dies
// (a panic, that exit) leaves the rest to another one.
//
// Without any of these variables, recording starts at process start
// (rt.go), as it must for benchmarks, examples and fuzz targets, which
// have no TestStart.

// EnvFromTest names the test whose start starts the recording.
const EnvFromTest = "PECANVET_FROM_TEST"

// EnvTraceDir names the directory of the per-test traces of a process
// running many tests.
const EnvTraceDir = "PECANVET_TRACE_DIR"

// EnvReplayList names the list of replays a process runs one after the
// other.
const EnvReplayList = "PECANVET_REPLAY_LIST"

// listEntry is one replay of a replay list.
type listEntry struct {
	sched, verdict, trace string
	explore               bool  // a field "explore": EnvExplore for this replay
	clock                 int64 // a field "clock=N": EnvClock for this replay
}

var (
	fromTest  string // EnvFromTest
	tracePath string // EnvTrace, when recording waits for fromTest
	traceDir  string // EnvTraceDir
	testMu    sync.Mutex
	curTest   string // the top-level test whose trace is being written (traceDir)
	// traced: the top-level tests whose trace this process wrote
	// (traceDir). A TestMain that calls m.Run more than once (pogreb's,
	// once per file system) runs each test again: its trace is its first
	// run's, as alone (started), and a later run must not write it over
	// while the driver reads or moves it.
	traced  map[string]bool
	started bool // fromTest's recording started
	// replayList: the replays still to run, by test (EnvReplayList);
	// listDirty: a replay left goroutines running, so no more run.
	replayList map[string][]listEntry
	listDirty  atomic.Bool
)

// readReplayList reads EnvReplayList's file: lines of four fields
// separated by tabs (test, schedule, verdict, trace), then optional ones,
// "explore" (EnvExplore) and "clock=N" (EnvClock).
func readReplayList(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	replayList = map[string][]listEntry{}
	for i, l := range strings.Split(string(data), "\n") {
		if l == "" {
			continue
		}
		f := strings.Split(l, "\t")
		bad := len(f) < 4 || f[0] == "" || f[1] == ""
		var e listEntry
		for _, x := range f[min(4, len(f)):] {
			if x == "explore" && !e.explore {
				e.explore = true
			} else if n, ok := strings.CutPrefix(x, "clock="); ok && e.clock == 0 {
				var err error
				e.clock, err = strconv.ParseInt(n, 10, 64)
				bad = bad || err != nil || e.clock == 0
			} else {
				bad = true
			}
		}
		if bad {
			return fmt.Errorf("%s:%d: want 4 tab-separated fields (test, schedule, verdict, trace) and optional ones, \"explore\" and \"clock=N\", got %q", path, i+1, l)
		}
		e.sched, e.verdict, e.trace = f[1], f[2], f[3]
		replayList[f[0]] = append(replayList[f[0]], e)
	}
	return nil
}

// setupFromTest reads the variables; rt.go's init calls it first and
// starts recording at once only when it returns false.
func setupFromTest() (deferred bool) {
	if p := getenv(EnvReplayList); p != "" {
		if err := readReplayList(p); err != nil {
			fmt.Fprintf(os.Stderr, "pecanvet: cannot replay: %v\n", err)
			os.Exit(3)
		}
		return true
	}
	traceDir = getenv(EnvTraceDir)
	if traceDir != "" {
		return true
	}
	fromTest = getenv(EnvFromTest)
	if fromTest != "" {
		tracePath = getenv(EnvTrace)
		return tracePath != ""
	}
	return false
}

// EndWithTest, called first by a TestMain of the package's own that
// never calls m.Run itself, says that the process may end before that
// TestMain's deferred Finish runs: it hands m to code outside the package
// (go.uber.org/goleak's VerifyTestMain: m.Run, a look for leaks, then
// os.Exit), whose os.Exit is not instrumented. A test recorded or
// replayed alone (EnvFromTest) then ends its trace, and a replay decides
// its end, after the test's last cleanup, as a batch's traces end with
// their tests; before, its trace had no end (truncated: no observed leak,
// no control's look at it) and a leak's replay no proof. A failed test
// keeps the old end: a panic fails its test before the cleanups run, and
// its trace must stay truncated.
func EndWithTest() { endWithTest.Store(true) }

var endWithTest atomic.Bool

// testCleaner is what EndWithTest needs of a *testing.T.
type testCleaner interface {
	Cleanup(func())
	Failed() bool
}

// TestStart marks the start of a test function and returns what its end
// runs (Drain, then, in a process of many tests, the end of the test's
// trace): see above. t is the test's *testing.T. The instrumenter makes
//
//	defer rt.TestStart(t)()
//
// the test's first statement, so the end runs last.
func TestStart(t interface{ Name() string }) (end func()) {
	if traceDir == "" && fromTest == "" && replayList == nil {
		return Drain
	}
	name := t.Name()
	if strings.Contains(name, "/") {
		return Drain // a test function run as a subtest: part of its parent's test
	}
	testMu.Lock()
	defer testMu.Unlock()
	if replayList != nil {
		return listStart(t, name)
	}
	if traceDir != "" {
		if name == curTest || traced[name] {
			return Drain // a test function called by the test itself, or a test run again
		}
		if traced == nil {
			traced = map[string]bool{}
		}
		traced[name] = true
		curTest = name
		if err := start(filepath.Join(traceDir, name+".trace")); err != nil {
			fmt.Fprintf(os.Stderr, "pecanvet: cannot record a trace: %v\n", err)
			return Drain
		}
		writeClock(filepath.Join(traceDir, name+".trace"))
		return func() {
			Drain()
			observeBlocked()
			testMu.Lock()
			defer testMu.Unlock()
			if curTest != name {
				return
			}
			// The test's trace is complete: say so to the driver, which
			// reads it while the next test runs. What runs between tests
			// (cleanups, goroutines the test left) is not recorded.
			finish("")
			curTest = ""
			os.WriteFile(filepath.Join(traceDir, name+".done"), nil, 0o644)
		}
	}
	if name != fromTest || started {
		return Drain
	}
	started = true
	err := start(tracePath)
	if err == nil {
		writeClock(tracePath)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "pecanvet: cannot record a trace: %v\n", err)
	} else if err := startReplay(); err != nil {
		fmt.Fprintf(os.Stderr, "pecanvet: cannot replay: %v\n", err)
		os.Exit(3)
	} else if c, ok := t.(testCleaner); ok && endWithTest.Load() {
		// Registered first, so it runs after the test's own cleanups.
		c.Cleanup(func() {
			if !c.Failed() {
				finish("")
			}
		})
	}
	return func() {
		Drain()
		observeBlocked()
		stopHangs()
		stopWatch()
	}
}

// listStart is TestStart in a process replaying a list (testMu held).
func listStart(t interface{ Name() string }, name string) (end func()) {
	if name == curTest {
		return Drain // a test function called by the test itself
	}
	q := replayList[name]
	if len(q) == 0 || listDirty.Load() {
		if s, ok := t.(interface{ SkipNow() }); ok {
			s.SkipNow() // runtime.Goexit: testMu is unlocked by TestStart's defer
		}
		return Drain
	}
	e := q[0]
	replayList[name] = q[1:]
	curTest = name
	if err := start(e.trace); err != nil {
		fmt.Fprintf(os.Stderr, "pecanvet: cannot record a trace: %v\n", err)
		os.Exit(3)
	}
	if err := startReplayFrom(e.sched, e.verdict, e.explore, e.clock); err != nil {
		fmt.Fprintf(os.Stderr, "pecanvet: cannot replay: %v\n", err)
		os.Exit(3)
	}
	return func() {
		Drain()
		stopHangs()
		left := leftRunning(listLeftBound)
		finish("")
		mu.Lock()
		rp = nil
		runClock() // a schedule that never let go
		freeAll.Store(false)
		mu.Unlock()
		testMu.Lock()
		defer testMu.Unlock()
		curTest = ""
		if left {
			listDirty.Store(true)
		}
	}
}

// listLeftBound is how long the end of a listed replay waits for the
// goroutines its test started to end.
var listLeftBound = 50 * time.Millisecond

// leftRunning reports whether goroutines started through Go during the
// recording (other than the caller) have not ended within bound.
func leftRunning(bound time.Duration) bool {
	self := curGoid()
	deadline := time.Now().Add(bound)
	for i := 0; ; i++ {
		mu.Lock()
		w := rec
		if w == nil {
			mu.Unlock()
			return false
		}
		pending, live := w.liveKids(self, 0)
		mu.Unlock()
		if pending == 0 && len(live) == 0 {
			return false
		}
		if time.Now().After(deadline) {
			return true
		}
		if i < 10 {
			runtime.Gosched()
		} else {
			time.Sleep(time.Millisecond)
		}
	}
}
