package testbin

import (
	"strings"
	"sync"
	"syscall"
)

// Processes that run alone. A test that binds a fixed port (datadog-go's
// statsd tests all listen on localhost:8765) or keeps a fixed path outside
// its package's directory collides with itself in pecanvet's other
// processes of the package, which run at the same time: one of them fails
// "bind: address already in use" and the test "fails only under
// instrumentation", or its replay takes another path (169 of 373 statsd
// replays diverged where the test server's listener was to be stored). A
// mirror (Private) does not separate ports. So a test marked Alone runs
// in processes that run alone among its package's: every process of a
// package holds its package's lock while it runs (Private), shared, and
// one that runs a marked test holds it alone. Marks are made at evidence
// only (check's second recording of a test that failed only under
// instrumentation; a collision's message in a shared process's output),
// so a package whose tests share nothing runs as before.

// aloneState is a package's lock and its marked tests.
type aloneState struct {
	mu     sync.RWMutex
	tmu    sync.Mutex
	marked map[string]bool
}

var alones sync.Map // package directory → *aloneState

func aloneOf(dir string) *aloneState {
	if st, ok := alones.Load(dir); ok {
		return st.(*aloneState)
	}
	st, _ := alones.LoadOrStore(dir, &aloneState{marked: map[string]bool{}})
	return st.(*aloneState)
}

// SetAlone marks (on) or unmarks test of the package in dir: the
// processes that run it from now on run alone among the package's.
func SetAlone(dir, test string, on bool) {
	st := aloneOf(dir)
	st.tmu.Lock()
	defer st.tmu.Unlock()
	if on {
		st.marked[test] = true
	} else {
		delete(st.marked, test)
	}
}

// Alone reports whether a process running tests of the package in dir runs
// alone among the package's: one of them is marked.
func Alone(dir string, tests ...string) bool {
	st := aloneOf(dir)
	st.tmu.Lock()
	defer st.tmu.Unlock()
	for _, t := range tests {
		if st.marked[t] {
			return true
		}
	}
	return false
}

// hold takes the package's lock for a process running tests (shared, or
// alone when one of them is marked) and returns its release and whether
// the process runs alone. A process's wait for the others ends: each
// ends by itself or at its time bound, and none waits for another to
// start.
func hold(dir string, tests []string) (release func(), alone bool) {
	st := aloneOf(dir)
	if Alone(dir, tests...) {
		st.mu.Lock()
		return st.mu.Unlock, true
	}
	st.mu.RLock()
	return st.mu.RUnlock, false
}

// collision is the message of a bind to a port another process holds.
var collision = syscall.EADDRINUSE.Error()

// Collided reports whether a test process's output shows a bind to a
// port that another process held: a process that ran beside others of
// its package may have collided with them.
func Collided(output string) bool {
	return strings.Contains(output, collision)
}
