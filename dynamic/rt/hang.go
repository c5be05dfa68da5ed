package rt

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Ending a recording that hangs.
//
// A test can hang for good in the schedule the recorded run happened to
// take: Go's TestRaceChanItselfRecv does when its goroutine runs only after
// the test replaced the channel it receives from, which a loaded machine
// makes likely. The checker's per-test timeout (minutes) would end it, at
// that cost each time. Instead, while recording (not replaying: the
// replayer decides quiescence itself), a watcher looks at the process when
// nothing was recorded for hangAfter: if every goroutine then waits in a
// way only another goroutine could end (a recorded channel operation,
// lock or WaitGroup, package testing waiting for the test), none runs,
// sleeps or waits for I/O or a timer, nothing ever will. It ends the trace,
// marked "hung", and the process, as a crash would: the batch records
// the tests after it in a new process.

// EnvHang overrides hangAfter, in milliseconds (0: never end a hang).
const EnvHang = "PECANVET_HANG_MS"

var (
	hangAfter = 5 * time.Second
	// The watcher runs while a recording does, and exits when it ends: a
	// test's TestMain may check for leaked goroutines after m.Run
	// (go.uber.org/goleak's VerifyTestMain: ttlcache's did, and failed
	// every test instrumented, on this goroutine).
	hangMu      sync.Mutex
	hangRunning bool
	hangWake    = make(chan struct{}, 1) // finish: look again now
	hangStop    atomic.Bool              // stopHangs: exit even while recording
)

// stopHangs ends the watcher at a test's end when the recording goes on
// to the process's end (PECANVET_FROM_TEST): what runs after the test (a
// TestMain's leak check) must not see it, and a hang there is bounded by
// the recording's timeout.
func stopHangs() {
	hangStop.Store(true)
	select {
	case hangWake <- struct{}{}:
	default:
	}
}

func init() {
	if v := getenv(EnvHang); v != "" {
		if ms, err := strconv.Atoi(v); err == nil && ms >= 0 {
			hangAfter = time.Duration(ms) * time.Millisecond
		}
	}
}

// watchHangs starts the watcher, once per process, unless the process
// replays a schedule: its sleeping would count as a goroutine about to
// move there (stuck.go), and the replayer watches for hangs itself.
func watchHangs() {
	if hangAfter > 0 && getenv(EnvSchedule) == "" && replayList == nil {
		hangMu.Lock()
		hangStop.Store(false)
		if !hangRunning {
			hangRunning = true
			go hangWatcher()
		}
		hangMu.Unlock()
	}
}

func hangWatcher() {
	buf := make([]byte, 64<<10)
	var last int64 = -1
	since := time.Now()
	for {
		select {
		case <-time.After(hangAfter / 5):
		case <-hangWake:
		}
		mu.Lock()
		w := rec
		replaying := rp != nil
		var count int64
		if w != nil {
			count = w.events + w.hb.total
		}
		mu.Unlock()
		if w == nil || hangStop.Load() {
			// The recording ended. Exit, unless one started meanwhile
			// (start sets rec before it calls watchHangs).
			hangMu.Lock()
			mu.Lock()
			again := rec != nil && !hangStop.Load()
			mu.Unlock()
			if !again {
				hangRunning = false
				hangMu.Unlock()
				return
			}
			hangMu.Unlock()
			last = -1
			continue
		}
		if replaying || !active.Load() {
			last = -1
			continue
		}
		if count != last {
			last, since = count, time.Now()
			continue
		}
		if time.Since(since) < hangAfter {
			continue
		}
		var gs []gstate
		gs, buf = dumpGoroutines(buf[:cap(buf)])
		if why, hung := allBlocked(w, gs); hung {
			reason := "hung: every goroutine blocked for " + hangAfter.String() + " (" + why + ")"
			fmt.Fprintln(os.Stderr, "pecanvet: the test "+reason)
			finish(reason)
			os.Exit(4)
		}
		since = time.Now()
	}
}

// allBlocked reports whether every goroutine of gs waits for another one,
// and says where they wait.
func allBlocked(w *recorder, gs []gstate) (string, bool) {
	if len(gs) == 0 {
		return "", false
	}
	mu.Lock()
	names := w.goroutineNames()
	mu.Unlock()
	var q quiescence
	for _, g := range gs {
		if g.class != gRecorded && g.class != gHard {
			return "", false
		}
		q.hard = append(q.hard, q.describe(names, g))
	}
	q.sort()
	return strings.Join(q.hard, "; "), true
}
