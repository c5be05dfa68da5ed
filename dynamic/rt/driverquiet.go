package rt

import (
	"path"
	"strings"
	"sync"
	"time"
)

// Telling that a generated driver's calls will not return (issue 30).
//
// A generated driver (static/driver) gives its calls a bound (5 s) and
// skips the test when they have not returned by then: a method that waits
// for another call (semaphore.Acquire past the limit, a cache's Start
// loop) costs the whole bound each time. While recording, DriverQuiet
// looks every few tens of milliseconds instead: when nothing was
// recorded for quietFor, every goroutine but the asking one waits (in a
// recorded operation, in package testing, or on a channel or select of
// instrumented code), and no timer that the instrumented code made
// (time.NewTimer, After, AfterFunc, Reset, context.WithTimeout or
// WithDeadline) falls before the bound, then nothing can wake the calls
// before the bound: the outcome is the bound's, known early. The answer is
// "wait on" whenever something is not known: a goroutine runs, sleeps or
// waits for I/O; a wait is in code that is not instrumented (its timers
// are not seen here); a ticker was made; too many timers to keep.

// quietFor is how long nothing may be recorded before DriverQuiet looks
// at the goroutines: a goroutine that was just woken records soon.
const quietFor = 200 * time.Millisecond

// maxDues bounds the deadlines kept; past it, timersUnknown.
const maxDues = 4096

var (
	dueMu sync.Mutex
	// The deadlines (unix nanoseconds) of the real timers made through rt
	// while not replaying: by timer (a stopped one is forgotten), and
	// those without a handle (After, WithDeadline). Passed ones are
	// pruned now and then.
	dueOf map[*time.Timer]int64
	dues  []int64
	// timersUnknown: a ticker was made, or too many timers to keep: a
	// wake-up may come at any time.
	timersUnknown bool
	// dqMu guards the looks' shared state: the dump buffer and the
	// instrumented files.
	dqMu  sync.Mutex
	dqBuf []byte
	// dqFiles: the base names of the registered sites' files, computed
	// from dqRegs sites.
	dqFiles map[string]bool
	dqRegs  int
)

// noteTimer notes a real timer without a handle due after d.
func noteTimer(d time.Duration) { noteTimerOf(nil, d) }

// noteTimerOf notes the real timer t (nil: one without a handle) due
// after d. Replay does not call it: its timers are on the virtual clock,
// which it watches itself.
func noteTimerOf(t *time.Timer, d time.Duration) {
	now := time.Now().UnixNano()
	due := now + int64(d)
	dueMu.Lock()
	defer dueMu.Unlock()
	if timersUnknown {
		return
	}
	if n := len(dues) + len(dueOf); n >= 256 && n&255 == 0 {
		k := 0
		for _, x := range dues {
			if x > now {
				dues[k] = x
				k++
			}
		}
		dues = dues[:k]
		for x, at := range dueOf {
			if at <= now {
				delete(dueOf, x)
			}
		}
	}
	if len(dues)+len(dueOf) >= maxDues {
		timersUnknown, dues, dueOf = true, nil, nil
		return
	}
	if t == nil {
		dues = append(dues, due)
		return
	}
	if dueOf == nil {
		dueOf = make(map[*time.Timer]int64)
	}
	dueOf[t] = due
}

// forgetTimer forgets a stopped real timer.
func forgetTimer(t *time.Timer) {
	dueMu.Lock()
	delete(dueOf, t)
	dueMu.Unlock()
}

// noteTicker notes a real ticker: its ticks come for as long as it lives.
func noteTicker() {
	dueMu.Lock()
	timersUnknown, dues, dueOf = true, nil, nil
	dueMu.Unlock()
}

// timerDueBefore reports whether a noted timer falls due between now and
// end, or whether that is unknown.
func timerDueBefore(end time.Time) bool {
	dueMu.Lock()
	defer dueMu.Unlock()
	if timersUnknown {
		return true
	}
	now, e := time.Now().UnixNano(), end.UnixNano()
	for _, t := range dues {
		if t > now && t <= e {
			return true
		}
	}
	for _, t := range dueOf {
		if t > now && t <= e {
			return true
		}
	}
	return false
}

// DriverQuiet returns a channel that is closed if, while the driver's
// calls have not returned (done is not closed), the program as recorded
// cannot move before end: the calls will not return by then. The driver's
// waiting goroutine selects on it beside its bound's timer (the
// instrumenter gives the driver's pecanvetQuiet this body). Outside a
// recording, and under replay (the replayer decides quiescence itself,
// and drivers it replays wait briefly), the channel is nil: never ready.
//
// The looks run on a timer that each look arms again, as the hang
// watcher's do (hang.go): between looks no goroutine of pecanvet's exists
// to be seen, and none is forked in the trace.
func DriverQuiet(end time.Time, done <-chan struct{}) <-chan struct{} {
	mu.Lock()
	ok := rec != nil && rp == nil
	mu.Unlock()
	if !ok || !active.Load() {
		return nil
	}
	q := &driverQuiet{end: end, done: done, ch: make(chan struct{}), since: time.Now(), count: -1}
	time.AfterFunc(dqEvery, q.look)
	return q.ch
}

// dqEvery is the interval of DriverQuiet's looks.
const dqEvery = 50 * time.Millisecond

// driverQuiet is one DriverQuiet's state.
type driverQuiet struct {
	end   time.Time
	done  <-chan struct{}
	ch    chan struct{}
	count int64     // events recorded at the last look
	since time.Time // since when count has not changed
}

// look is one look, on its timer's goroutine; it arms the next one
// unless the calls returned, the bound passed, or the answer is known.
func (q *driverQuiet) look() {
	select {
	case <-q.done:
		return
	default:
	}
	if !time.Now().Before(q.end) {
		return
	}
	if q.quiet() {
		close(q.ch)
		return
	}
	time.AfterFunc(dqEvery, q.look)
}

// quiet reports whether nothing can move before q.end.
func (q *driverQuiet) quiet() bool {
	// Lock order: dqMu, then mu or dueMu; mu before dueMu (NewTimer
	// notes its timer holding mu).
	dqMu.Lock()
	defer dqMu.Unlock()
	mu.Lock()
	w, replaying, count := progressLocked()
	nregs := len(regs)
	mu.Unlock()
	if w == nil || replaying || !active.Load() {
		return false
	}
	if count != q.count {
		q.count, q.since = count, time.Now()
		return false
	}
	if time.Since(q.since) < quietFor || timerDueBefore(q.end) {
		return false
	}
	if dqFiles == nil || dqRegs != nregs {
		dqFiles, dqRegs = instrumentedFiles(), nregs
	}
	if dqBuf == nil {
		dqBuf = make([]byte, 64<<10) // dumpGoroutines doubles it as needed
	}
	var gs []gstate
	gs, dqBuf = dumpGoroutines(dqBuf[:cap(dqBuf)])
	if len(gs) == 0 {
		return false
	}
	for _, g := range gs {
		switch g.class {
		case gRecorded, gHard:
		case gSoft:
			// A channel of instrumented code: its timers are noted.
			// Elsewhere (a dependency's timer, I/O): unknown. A wait
			// for a signal (sigWait) wakes no call.
			if !g.signal && (g.state == "IO wait" || g.where == "" || !dqFiles[strings.SplitN(g.where, ":", 2)[0]]) {
				return false
			}
		default:
			return false
		}
	}
	// Nothing recorded meanwhile: the dump saw the state it describes.
	mu.Lock()
	same := rec == w && w.events+w.hb.total == count
	mu.Unlock()
	return same
}

// instrumentedFiles returns the base names of the files of the registered
// sites (goroutine dumps name files by full path; g.where keeps the base).
func instrumentedFiles() map[string]bool {
	mu.Lock()
	defer mu.Unlock()
	files := make(map[string]bool)
	for _, s := range regs {
		if i := strings.IndexByte(s.Pos, ':'); i > 0 {
			files[path.Base(s.Pos[:i])] = true
		}
	}
	return files
}

// DriverReplaying reports whether this process replays a schedule in the
// running test (the instrumenter gives a generated driver's
// pecanvetReplaying this body). A driver runs its calls together before
// most of its oracle (static/driver); outside a replay, a call that
// panics waits, unrecovered, for the oracle to judge whether the panic
// counts. Under a replay it must not: the oracle's steps, taken while
// the schedule holds the other goroutines, would end the replay
// (diverged) before the panic ends the process, as it did when the
// oracle ran first.
func DriverReplaying() bool {
	mu.Lock()
	defer mu.Unlock()
	return rp != nil
}
