package rt

import (
	"fmt"
	"math"
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
// lock or WaitGroup, a select of instrumented code with no case a timer
// could ready, package testing waiting for the test), none runs,
// sleeps or waits for I/O or a timer, nothing ever will. It ends the trace,
// marked "hung", and the process, as a crash would: the batch records
// the tests after it in a new process.
//
// When every goroutine waits in a recorded operation (or is package
// testing waiting for the test) and no timer the instrumented code made is
// pending (driverquiet.go notes them), the hang is called after
// hardHangAfter instead: such a wait ends only by another goroutine's
// recorded operation, none runs, and no noted timer can start one, so
// waiting longer proves nothing more; the replayer calls the same state
// quiescent at once (stuck.go). A runnable goroutine, however slow on a
// loaded machine, shows as busy in the dump, so load makes no hang of a
// slow test. What no dump shows is a timer made by code that is not
// instrumented (a dependency's AfterFunc or context deadline) whose
// callback would go on to wake a recorded wait: one due between
// hardHangAfter and hangAfter is the shorter bound's risk. looplab/fsm's
// TestContextInCallbacks, which hangs in about every other run, spent 5 s
// of its check's 8 s waiting here.
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
	// hardHangAfter is the quiet that proves a hang when every goroutine
	// waits in a recorded operation and no noted timer is pending.
	hardHangAfter = hangAfter / 5
	// softHangAfter is the quiet a process whose goroutines all wait, some
	// outside recorded operations, must keep to be ended as stalled: a
	// multiple of hangAfter (EnvHang scales both).
	softHangAfter = 3 * hangAfter
	// The watcher runs while a recording does, as a look every
	// lookEvery() on a timer that each look arms again: between looks no
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
	next  time.Time // the next goroutine dump, while the count stays
	prev  time.Time // the last full look's dump (since, before the first)
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
			hardHangAfter = hangAfter / 5
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
			time.AfterFunc(lookEvery(), hangLook)
		}
		hangMu.Unlock()
	}
}

// hangLook is one look of the watcher, on its timer's goroutine; it arms
// the next one unless the recording ended.
func hangLook() {
	if hw.look() {
		time.AfterFunc(lookEvery(), hangLook)
	}
}

// lookEvery is the interval of the watcher's looks: half hardHangAfter,
// so that a hard hang is called within 1.5 hardHangAfter of its start.
func lookEvery() time.Duration { return max(hardHangAfter/2, time.Millisecond) }

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
	now := time.Now()
	if count != h.last {
		h.last, h.since, h.next, h.prev, h.soft = count, now, now.Add(hardHangAfter), now, ""
		return true
	}
	if now.Before(h.next) {
		return true
	}
	// One dump after hardHangAfter of quiet, then one every hangAfter
	// from hangAfter on.
	quiet := now.Sub(h.since)
	h.next = now.Add(hangAfter)
	if quiet < hangAfter {
		h.next = h.since.Add(hangAfter)
	}
	var gs []gstate
	gs, h.buf = dumpGoroutines(h.buf[:cap(h.buf)])
	mu.Lock()
	markHardSelects(gs)
	mu.Unlock()
	why, state := allBlocked(w, gs)
	if quiet < hangAfter && (state != blockedHard || !onlyRecordedWaits(gs) || timerDueBefore(time.Unix(0, math.MaxInt64))) {
		// Not yet provable: only the full bounds decide.
		return true
	}
	switch {
	case state == blockedHard:
		reason := "hung: every goroutine blocked for " + quiet.Round(100*time.Millisecond).String() + " (" + why + ")"
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
		// The quiet began when nothing was recorded any more, or the
		// goroutines moved there after the last look.
		h.soft, h.softSince = why, h.prev
	case state != blockedSoft:
		h.soft = ""
	}
	h.prev = now
	return true
}

// onlyRecordedWaits reports whether every goroutine of gs waits in a
// recorded operation or is package testing waiting for a test: no wait
// in code that is not instrumented, which a timer it made might end.
func onlyRecordedWaits(gs []gstate) bool {
	for _, g := range gs {
		if g.class != gRecorded && !g.hardSel && !(g.class == gHard && g.testing) {
			return false
		}
	}
	return len(gs) > 0
}

// markHardSelects marks the goroutines of gs parked in a select of
// instrumented code that only another goroutine can end (mu held): the
// select they noted last (SelectGate: hardSelects, this recording's or
// an earlier test's), whose every case is such (goroutineOnly), at its
// line. goroutines' TestPoolSuite hung with its miner in such a select
// (pool.go:249, a send on its worker channel or the stop channel) and a
// hundred idle workers of earlier tests' pools in another (worker.go:86)
// beside a recycler holding the pool's lock in a send to a busy worker;
// counted waits a timer might end, they had the recording cut as
// stalled after 15 s, and the hang went unreported.
func markHardSelects(gs []gstate) {
	if len(hardSelects) == 0 {
		return
	}
	for i := range gs {
		x := &gs[i]
		if x.class != gSoft || x.state != "select" {
			continue
		}
		if site := hardSelects[x.id]; site > 0 && blockedIn(*x, blocking{site: site, kind: bSelect}) {
			x.hardSel = true
		}
	}
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
		case g.class == gRecorded || g.class == gHard || g.hardSel:
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
