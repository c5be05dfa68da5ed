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
//
// A wait on a channel or select of code that is not instrumented (a mock
// clock's Sleep, a net.Pipe read) might be ended by a timer, so it proves
// no hang. But a process in which nothing was recorded for softHangAfter,
// every goroutine waiting in the same place at each look, no goroutine
// running or sleeping, is ended as well, its trace marked "stalled": on
// go.uber.org/ratelimit, TestSlack's Takes sometimes miss the mock
// clock's Add and sleep on it for good (as under go test -race), and the
// recording sat out its two-minute timeout each time. A test whose only
// activity is a longer timer in uninstrumented code is cut so, and the
// mark says why.

// EnvHang overrides hangAfter, in milliseconds (0: never end a hang).
const EnvHang = "PECANVET_HANG_MS"

var (
	hangAfter = 5 * time.Second
	// softHangAfter is the quiet a process whose goroutines all wait, some
	// outside recorded operations, must keep to be ended as stalled: a
	// multiple of hangAfter (EnvHang scales both).
	softHangAfter = 3 * hangAfter
	// The watcher runs while a recording does, as a look every
	// hangAfter/5 on a timer that each look arms again: between looks no
	// goroutine of pecanvet's exists for a leak check to find, whether
	// after m.Run (go.uber.org/goleak's VerifyTestMain: ttlcache's did,
	// and failed every test instrumented, on the watcher's goroutine) or
	// within a test (goleak.VerifyNone deferred in each of gocron's
	// tests failed them all instrumented).
	hangMu      sync.Mutex
	hangRunning bool
	hangStop    atomic.Bool // stopHangs: stop even while recording
	hw          hangWatch   // the looks' state; one look runs at a time
)

// hangWatch is what the watcher's looks carry from one to the next.
type hangWatch struct {
	buf   []byte
	last  int64     // events recorded at the last look (-1: none yet)
	since time.Time // when that count was first seen
	// soft: the goroutines' places at the last look that found every
	// goroutine waiting, some outside recorded operations, and since when
	// they have been there (with nothing recorded).
	soft      string
	softSince time.Time
}

// stopHangs ends the watcher at a test's end when the recording goes on
// to the process's end (PECANVET_FROM_TEST): a hang after it (in a
// TestMain's leak check) is bounded by the recording's timeout.
func stopHangs() {
	hangStop.Store(true)
}

func init() {
	if v := getenv(EnvHang); v != "" {
		if ms, err := strconv.Atoi(v); err == nil && ms >= 0 {
			hangAfter = time.Duration(ms) * time.Millisecond
			softHangAfter = 3 * hangAfter
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
			hw = hangWatch{buf: hw.buf, last: -1, since: time.Now()}
			if hw.buf == nil {
				hw.buf = make([]byte, 64<<10)
			}
			time.AfterFunc(hangAfter/5, hangLook)
		}
		hangMu.Unlock()
	}
}

// hangLook is one look of the watcher, on its timer's goroutine; it arms
// the next one unless the recording ended.
func hangLook() {
	if hw.look() {
		time.AfterFunc(hangAfter/5, hangLook)
	}
}

// progressLocked returns the recording, whether a replay runs, and the
// count the watchers compare for progress: the recording's events and
// happens-before notes so far (mu held).
func progressLocked() (w *recorder, replaying bool, count int64) {
	w = rec
	if w != nil {
		count = w.events + w.hb.total
	}
	return w, rp != nil, count
}

// look reports whether the watcher goes on.
func (h *hangWatch) look() bool {
	mu.Lock()
	w, replaying, count := progressLocked()
	mu.Unlock()
	if w == nil || hangStop.Load() {
		// The recording ended. Stop, unless one started meanwhile
		// (start sets rec before it calls watchHangs).
		hangMu.Lock()
		defer hangMu.Unlock()
		mu.Lock()
		again := rec != nil && !hangStop.Load()
		mu.Unlock()
		if !again {
			hangRunning = false
			return false
		}
		h.last, h.soft = -1, ""
		return true
	}
	if replaying || !active.Load() {
		h.last, h.soft = -1, ""
		return true
	}
	if count != h.last {
		h.last, h.since, h.soft = count, time.Now(), ""
		return true
	}
	if time.Since(h.since) < hangAfter {
		return true
	}
	var gs []gstate
	gs, h.buf = dumpGoroutines(h.buf[:cap(h.buf)])
	why, state := allBlocked(w, gs)
	switch {
	case state == blockedHard:
		reason := "hung: every goroutine blocked for " + hangAfter.String() + " (" + why + ")"
		fmt.Fprintln(os.Stderr, "pecanvet: the test "+reason)
		mu.Lock()
		if rec == w {
			observeHung(w, gs)
		}
		mu.Unlock()
		finish(reason)
		os.Exit(4)
	case state == blockedSoft && why == h.soft && time.Since(h.softSince) >= softHangAfter:
		reason := "stalled: nothing recorded for " + time.Since(h.softSince).Round(time.Second).String() +
			" while every goroutine waited, some on channels outside recorded operations that only a timer could end (" + why + ")"
		fmt.Fprintln(os.Stderr, "pecanvet: the test "+reason)
		finish(reason)
		os.Exit(4)
	case state == blockedSoft && why != h.soft:
		// The quiet began when nothing was recorded any more.
		h.soft, h.softSince = why, h.since
	case state != blockedSoft:
		h.soft = ""
	}
	h.since = time.Now()
	return true
}

// What allBlocked found.
const (
	blockedNot  = iota // some goroutine runs, sleeps or waits for I/O
	blockedHard        // every goroutine waits for another one
	// blockedSoft: every goroutine waits, some on a channel or select
	// outside recorded operations, which a timer may yet end.
	blockedSoft
)

// allBlocked reports whether every goroutine of gs waits for another one
// (blockedHard), or waits with some on channels outside recorded
// operations (blockedSoft), and says where they wait: the same text for
// the same places.
func allBlocked(w *recorder, gs []gstate) (string, int) {
	if len(gs) == 0 {
		return "", blockedNot
	}
	mu.Lock()
	names := w.goroutineNames()
	mu.Unlock()
	var q quiescence
	for _, g := range gs {
		switch {
		case g.class == gRecorded || g.class == gHard:
			q.hard = append(q.hard, q.describe(names, g))
		case g.class == gSoft && g.state != "IO wait":
			q.soft = append(q.soft, q.describe(names, g))
		default:
			return "", blockedNot
		}
	}
	q.sort()
	if len(q.soft) > 0 {
		return strings.Join(append(q.soft, q.hard...), "; "), blockedSoft
	}
	return strings.Join(q.hard, "; "), blockedHard
}
