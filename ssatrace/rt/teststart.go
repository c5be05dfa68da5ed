package rt

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
// Without either variable, recording starts at process start (rt.go), as
// it must for benchmarks, examples and fuzz targets, which have no
// TestStart.

// EnvFromTest names the test whose start starts the recording.
const EnvFromTest = "PECANVET_FROM_TEST"

// EnvTraceDir names the directory of the per-test traces of a process
// running many tests.
const EnvTraceDir = "PECANVET_TRACE_DIR"

var (
	fromTest  string // EnvFromTest
	tracePath string // EnvTrace, when recording waits for fromTest
	traceDir  string // EnvTraceDir
	testMu    sync.Mutex
	curTest   string // the top-level test whose trace is being written (traceDir)
	started   bool   // fromTest's recording started
)

// setupFromTest reads the variables; rt.go's init calls it first and
// starts recording at once only when it returns false.
func setupFromTest() (deferred bool) {
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

// TestStart marks the start of a test function and returns what its end
// runs (Drain, then, in a process of many tests, the end of the test's
// trace): see above. t is the test's *testing.T. The instrumenter makes
//
//	defer rt.TestStart(t)()
//
// the test's first statement, so the end runs last.
func TestStart(t interface{ Name() string }) (end func()) {
	if traceDir == "" && fromTest == "" {
		return Drain
	}
	name := t.Name()
	if strings.Contains(name, "/") {
		return Drain // a test function run as a subtest: part of its parent's test
	}
	testMu.Lock()
	defer testMu.Unlock()
	if traceDir != "" {
		if name == curTest {
			return Drain // a test function called by the test itself
		}
		curTest = name
		if err := start(filepath.Join(traceDir, name+".trace")); err != nil {
			fmt.Fprintf(os.Stderr, "pecanvet: cannot record a trace: %v\n", err)
			return Drain
		}
		return func() {
			Drain()
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
	if err := start(tracePath); err != nil {
		fmt.Fprintf(os.Stderr, "pecanvet: cannot record a trace: %v\n", err)
	} else if err := startReplay(); err != nil {
		fmt.Fprintf(os.Stderr, "pecanvet: cannot replay: %v\n", err)
		os.Exit(3)
	}
	return func() {
		Drain()
		stopHangs()
	}
}
