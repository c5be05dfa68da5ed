package rt

import (
	"bytes"
	"runtime"
	"sort"
	"strconv"
	"strings"
)

// Knowing when nothing can move (replay.go's watch uses this).
//
// The replayer knows which goroutines wait at a gate for their turn; what
// the others do it learns from the runtime itself: a goroutine dump
// (runtime.Stack, all goroutines, one stop of the world) taken only when
// nothing moved for a tick. Each goroutine of the process is then one of:
//
//   - at a gate: waiting in turn for its step;
//   - in a recorded operation that blocks (a lock, a channel operation, a
//     WaitGroup or Cond wait, a Once another call is running): the wrapper
//     performing it is its innermost rt frame and its state is a wait;
//   - in rt.Sleep: a sleep the virtual clock may end at once (vclock.go);
//   - waiting outside what is recorded, in a way only a timer, I/O or a
//     signal can end (a select, a channel of uninstrumented code, I/O
//     wait, os/signal's loop waiting for a signal): "soft";
//   - waiting in a way nothing but another goroutine can end (a lock, a
//     WaitGroup, the testing package waiting for a test): "hard";
//   - busy: running, runnable, in a system call, in time.Sleep, or waiting
//     for rt's own lock (it is about to record).
//
// If any goroutine is busy, things may still move: only the stall bound
// (a wall clock) decides. Otherwise the process is quiescent. With events
// of the virtual clock pending (sleeps, timers, tickers), the earliest
// fires. With soft waits, the quiet bound decides (a timer or I/O may
// still fire). With only gates and hard waits, nothing can ever move: the
// verdict is immediate.

type gclass int

const (
	gBusy gclass = iota
	gGate
	gRecorded // blocked in a recorded operation
	gSleep    // in rt.Sleep
	gSoft     // waiting outside what is recorded; a timer or I/O may end it
	gHard     // waiting; only another goroutine can end it
	// gDrain: the test goroutine asleep in drainReplay's poll, waiting
	// for another goroutine's step of the schedule (or its bound).
	gDrain
)

// gstate is one goroutine of a dump.
type gstate struct {
	id    int64
	state string // the runtime's wait reason ("chan receive", …)
	class gclass
	where string // the innermost frame outside the runtime, sync, testing and rt: "file.go:12"
	op    string // for gRecorded: the wrapper ("Lock", "Recv2", …)
	// testing: it waits in package testing (a subtest paused by
	// t.Parallel, a test waiting for its subtests).
	testing bool
	// hardSel: recording, it is parked in a select of instrumented code
	// that only another goroutine can end (blocking.hard): the hang
	// watcher counts it as a recorded wait (hang.go).
	hardSel bool
	// watcher: it is the replay's watcher (replayer.watch), rt's own.
	watcher bool
	// held: it waits at its gate while another goroutine runs alone
	// after the verdict (replayer.waitAlone); counted busy, as the hold
	// may end at any moment.
	held bool
	// signal: it is os/signal's loop waiting for a signal (sigWait).
	signal bool
}

// rtPrefix is this package's import path plus ".", as frames name its
// functions (the path differs per instrumented build).
var rtPrefix = func() string {
	pc, _, _, _ := runtime.Caller(0)
	name := runtime.FuncForPC(pc).Name() // "<path>/rt.init.func1" or similar
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		if j := strings.IndexByte(name[i:], '.'); j >= 0 {
			return name[:i+j+1]
		}
	}
	if j := strings.IndexByte(name, '.'); j >= 0 {
		return name[:j+1]
	}
	return "rt."
}()

// blockingWrappers are the wrappers that perform an operation that may
// block, after their gate.
var blockingWrappers = map[string]bool{
	"Lock": true, "RLock": true, "WGWait": true, "CondWait": true, "OnceDo": true,
	"Send": true, "Recv": true, "Recv2": true,
}

// busyState reports whether a goroutine in this state may move by itself.
// A goroutine in runtime.GC waits for the cycle it started ("wait for GC
// cycle"), which the collector's own workers end: taken for a hard wait,
// Go's TestRaceFin (runtime.GC, then a sleep) was called deadlocked
// before its sleep's step whenever the cycle outlasted the watcher's
// look, on a loaded machine ("step 11 (g1.1 sleep …) cannot come"), and
// the replay that shares its prefix was pruned with it.
func busyState(s string) bool {
	switch s {
	case "running", "runnable", "syscall", "sleep", "preempted", "copystack", "wait for GC cycle":
		return true
	}
	return strings.HasPrefix(s, "GC ") || strings.HasPrefix(s, "garbage collection")
}

// sigWait reports whether a goroutine in state, whose innermost frame
// outside the runtime and sync is fn, is os/signal's loop waiting for a
// signal: signal_recv sleeps in a blocking system call (notetsleepg), so
// the dump says "syscall", which is busy. Every process that called
// signal.Notify keeps that goroutine for good (signal.Stop does not end
// it), and counted busy it kept the replayer from ever seeing the process
// quiescent: bubbletea's Program.Run, which calls Notify, had each of its
// replays wait out the stall bound (8 s) or its contexts' deadlines in
// real time. Only a signal ends that wait, which no timer of the
// program and no I/O brings: it is soft (a hang waits the quiet bound
// for one), and no timer wait (timerSoft): moving the clock past it is a
// run in which no signal came first, as in any test not sent one; a
// signal the process sends itself is handled within microseconds, long
// before the watcher's look after a millisecond of quiet.
func sigWait(state, fn string) bool {
	return state == "syscall" && fn == "os/signal.signal_recv"
}

// softState reports whether a wait outside recorded operations could be
// ended by a timer, I/O or a signal.
func softState(s string) bool {
	return strings.HasPrefix(s, "chan ") || strings.HasPrefix(s, "select") || s == "IO wait"
}

// dumpGoroutines classifies every goroutine of the process but the caller.
func dumpGoroutines(buf []byte) ([]gstate, []byte) {
	buf = allStacks(buf, 0)
	var out []gstate
	first := true
	for _, block := range bytes.Split(buf, []byte("\n\n")) {
		if first { // the caller (the watcher)
			first = false
			continue
		}
		if g, ok := parseGoroutine(string(block)); ok {
			out = append(out, g)
		}
	}
	return out, buf[:cap(buf)]
}

// allStacks returns the stacks of all goroutines (runtime.Stack), in buf
// when they fit, else in a buffer grown as needed, up to max bytes if max
// is positive (the dump is cut there).
func allStacks(buf []byte, max int) []byte {
	if len(buf) == 0 {
		buf = make([]byte, 64<<10)
	}
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) || max > 0 && len(buf) >= max {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}

// parseGoroutine reads one goroutine of a runtime.Stack dump:
//
//	goroutine 7 [chan receive, 2 minutes]:
//	pkg.f(...)
//		/path/file.go:12 +0x1d
//	...
//	created by pkg.g in goroutine 1
//		/path/file.go:30 +0x55
func parseGoroutine(b string) (gstate, bool) {
	lines := strings.Split(strings.TrimSpace(b), "\n")
	h := lines[0]
	if !strings.HasPrefix(h, "goroutine ") {
		return gstate{}, false
	}
	h = h[len("goroutine "):]
	sp := strings.IndexByte(h, ' ')
	lb, rb := strings.IndexByte(h, '['), strings.LastIndexByte(h, ']')
	if sp < 0 || lb < 0 || rb < lb {
		return gstate{}, false
	}
	id, err := strconv.ParseInt(h[:sp], 10, 64)
	if err != nil {
		return gstate{}, false
	}
	g := gstate{id: id, state: h[lb+1 : rb]}
	if i := strings.IndexByte(g.state, ','); i >= 0 {
		g.state = g.state[:i]
	}
	// Frames: function line, then "\tfile:line +0x..". What the goroutine
	// waits in is decided by its innermost frame outside the runtime and
	// sync: an rt function, package testing, or other code.
	var rtFrame string
	sigFrame := "" // the innermost frame outside the runtime and sync
	first := ""    // "rt", "testing" or "user"
	condWait := false
	inDrain := false    // time.Sleep called by drainReplay
	var inner [2]string // the two frames inside this one, innermost last
	parkWoken := false
	for i := 1; i+1 < len(lines); i += 2 {
		fn := lines[i]
		if strings.HasPrefix(fn, "created by ") {
			break
		}
		if k := strings.LastIndexByte(fn, '('); k > 0 {
			fn = fn[:k]
		}
		if fn == rtPrefix+"(*park).Wait" && parkRelock(inner) {
			parkWoken = true
		}
		inner = [2]string{inner[1], fn}
		if fn == rtPrefix+"hangLook" || fn == rtPrefix+"(*hangWatch).look" || fn == rtPrefix+"(*driverQuiet).look" {
			return gstate{}, false // rt's own (hang.go, driverquiet.go), as the caller is
		}
		if strings.HasPrefix(fn, rtPrefix+"(*park).") {
			continue // the replay's hold (park.go): its caller says which
		}
		if fn == rtPrefix+"clockAlarm" {
			// The virtual clock's real-time alarm, waiting for mu to
			// fire what is due: those events are still pending
			// (clock.queue, which the decision weighs).
			return gstate{}, false
		}
		if i == 3 && fn == rtPrefix+"drainReplay" && strings.HasPrefix(lines[1], "time.Sleep(") {
			inDrain = true
		}
		kind := "user"
		if fn == "sync.(*Cond).Wait" {
			condWait = true
		}
		switch {
		case strings.HasPrefix(fn, rtPrefix):
			kind = "rt"
		case strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "sync.") || strings.HasPrefix(fn, "internal/") ||
			strings.HasPrefix(fn, "sync/atomic."):
			continue
		case strings.HasPrefix(fn, "testing."):
			kind = "testing"
		}
		if first == "" {
			first, sigFrame = kind, fn
			if kind == "rt" {
				rtFrame = fn[len(rtPrefix):]
				if k := strings.IndexByte(rtFrame, '['); k >= 0 {
					rtFrame = rtFrame[:k] // generic: Send[...]
				}
			}
		}
		if kind == "user" && g.where == "" {
			loc := strings.TrimSpace(lines[i+1])
			if k := strings.LastIndexByte(loc, ' '); k > 0 {
				loc = loc[:k]
			}
			if k := strings.LastIndexByte(loc, '/'); k >= 0 {
				loc = loc[k+1:]
			}
			g.where = loc
		}
	}
	switch {
	case inDrain && g.state == "sleep":
		g.class = gDrain
	case sigWait(g.state, sigFrame):
		g.class, g.signal, g.state = gSoft, true, "waiting for a signal"
	case busyState(g.state):
		g.class = gBusy
	case parkWoken:
		g.class = gBusy // waiting for rt's lock: woken in its park
	case first == "rt":
		switch {
		case rtFrame == "(*replayer).turn" || rtFrame == "(*replayer).take" || rtFrame == "(*replayer).waitTurn": // take: turn's wait, also preSelect's
			g.class = gGate
		case rtFrame == "Sleep":
			g.class = gSleep
		case rtFrame == "CondWait" && !condWait:
			g.class = gBusy // waiting for rt's lock
		case blockingWrappers[rtFrame]:
			g.class, g.op = gRecorded, rtFrame
		case rtFrame == "(*replayer).watch":
			g.class, g.watcher = gBusy, true // waiting for its tick, or for rt's lock
		case rtFrame == "(*replayer).waitAlone":
			g.class, g.held = gBusy, true
		case rtFrame == "(*replayer).ended":
			g.class = gHard // the end of the process, waiting for the schedule
		default:
			g.class = gBusy // waiting for rt's lock: about to record
		}
	case first == "testing":
		g.class = gHard // package testing waiting for a test
		g.testing = true
	case softState(g.state):
		g.class = gSoft
	default:
		g.class = gHard
	}
	return g, true
}

// parkRelock reports whether a goroutine in (*park).Wait, whose two
// frames inside it are inner (the innermost last), was woken there and
// waits for mu, rt's lock, to return: in sync.Cond.Wait's relock, or in a bubble in park.Wait's own
// mu.Lock (its hold is in (*park).hold). rt holds mu only for moments,
// so it will run: it is busy, not a goroutine at its gate. Read as at
// its gate, lottery's replay (replay's TestInterruptedPasses) was called
// deadlocked under load: the goroutine whose step had the turn waited
// for mu behind the virtual clock's alarm, woken by the watcher's unlock
// for its dump and dropped from it as rt's own, so nothing looked busy
// ("every goroutine waits; step 22 (g1.1 lock Lottery.mu) cannot come").
func parkRelock(inner [2]string) bool {
	switch {
	case inner[1] == "sync.(*Mutex).Lock":
		return true // in a bubble, after its hold
	case inner[1] == "sync.(*Cond).Wait" && inner[0] == "sync.(*Mutex).Lock":
		return true // notified: Cond.Wait's c.L.Lock
	}
	return false
}

// quiescence sums up a dump.
type quiescence struct {
	busy []string // goroutines that may move by themselves
	soft []string // waits a timer or I/O may end
	hard []string // waits in recorded operations and other hard waits
	// timerSoft counts the soft waits a timer might end: all but the
	// selects of instrumented code whose every case only another
	// goroutine can ready (markHardSelects) and os/signal's wait for a
	// signal (sigWait), which stay in soft for the verdicts but do not
	// keep the clock from moving.
	timerSoft int
}

func (q *quiescence) describe(names map[int64]string, g gstate) string {
	who := names[g.id]
	if who == "" {
		who = "goroutine " + strconv.FormatInt(g.id, 10) + " (not instrumented)"
	}
	s := who + " " + g.state
	if g.op != "" {
		s = who + " blocks in " + g.op + " (" + g.state + ")"
	}
	if g.where != "" {
		s += " at " + g.where
	}
	return s
}

func (q *quiescence) sort() {
	sort.Strings(q.busy)
	sort.Strings(q.soft)
	sort.Strings(q.hard)
}
