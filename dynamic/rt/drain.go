package rt

import (
	"bytes"
	"runtime"
	"strconv"
	"time"
)

// Draining the end of a test.
//
// A recorded run is one sample of the test's schedules. A goroutine the
// test started but did not wait for may not have run at all when the test
// function returned, and the process then exits before it does: the trace
// lacks its accesses, and nothing can be predicted about them, although
// `go test -race`, whose process goes on with the next test, often sees
// them. So the instrumenter makes every test function's first statement
//
//	defer rt.Drain()
//
// which runs after the test's own deferred calls (and after t.Fatal's
// runtime.Goexit, or during a panic), while the test is still running, so
// that a late goroutine may still use t. Drain lets the goroutines started
// through rt.Go proceed, bounded: it returns as soon as every one of them
// has begun and has either ended or sat blocked (on a channel, a select, a
// lock, a WaitGroup, a Cond, I/O) with no new event recorded for
// drainQuiet, and in any case after drainBound (PECANVET_DRAIN_MS). A
// goroutine that sleeps or runs counts as busy: it is about to record.
// Quiet is what Drain's looks saw: of a long gap between two looks (a
// loaded machine not running the process) only drainGap counts.
// The callback of a time.AfterFunc timer is a goroutine that has not
// begun until the timer fires: one stopped for good, or due after the
// bound, is not waited for (AfterFuncAt). Nor are the further wake-ups of
// a goroutine that a ticker (or any outside source) wakes again and
// again, once it recorded drainTicks separate bursts since the test
// returned (onlyPeriodic) and drainPeriodic has passed: a ticker faster
// than drainQuiet otherwise held every test for the whole bound.
//
// Under a replay schedule, Drain instead keeps the test goroutine there
// until the schedule no longer needs the others (the verdict is decided,
// or the next step is the test goroutine's own), with the same bound, so
// that replay sees the same end-of-test window as the recording.

// EnvDrain overrides drainBound, in milliseconds (0 turns draining off).
const EnvDrain = "PECANVET_DRAIN_MS"

var (
	drainBound = time.Second
	drainQuiet = 20 * time.Millisecond
	// drainGap is the most of the time between two of Drain's looks
	// (a millisecond's sleep apart) that counts towards drainQuiet: at
	// load 20-40 the looks came 20-170 ms apart, and one look after such
	// a gap, before the goroutine a 2 ms ticker woke had run, ended
	// Drain with none of its ticks in the trace (TestDrainTicker, 24 of
	// 40 runs at load 40). drainQuiet takes at least four looks now.
	drainGap = drainQuiet / 4
	// drainNow is Drain's clock (a test's can jump).
	drainNow = time.Now
)

func init() {
	if v := getenv(EnvDrain); v != "" {
		if ms, err := strconv.Atoi(v); err == nil && ms >= 0 {
			drainBound = time.Duration(ms) * time.Millisecond
		}
	}
}

// Drain waits, bounded, until the goroutines started so far have run: see
// above. The instrumenter defers it first in every test function.
func Drain() {
	if !active.Load() || drainBound <= 0 {
		return
	}
	if rp != nil {
		deadline := time.Now().Add(drainBound)
		drainReplay(deadline)
		drainFreed(deadline)
		return
	}
	self := curGoid()
	start := drainNow()
	quietSince, lastLook := start, start
	last := int64(-1)
	seen := map[*Goroutine]*drainSeen{}
	for i := 0; ; i++ {
		mu.Lock()
		w := rec
		if w == nil {
			mu.Unlock()
			return
		}
		pending, live := w.liveKids(self, start.Add(drainBound).UnixNano())
		count := w.events + w.hb.total
		periodic := false
		if count != last {
			periodic = w.onlyPeriodic(seen, self, i)
		}
		mu.Unlock()
		if pending == 0 && len(live) == 0 {
			return // everyone started has ended
		}
		t := drainNow()
		if gap := t.Sub(lastLook); gap > drainGap {
			// This look comes long after the last (a loaded machine
			// did not run the process): what became due meanwhile,
			// a ticker's goroutine, has not run yet either. Only
			// drainGap of it was seen quiet.
			quietSince = quietSince.Add(gap - drainGap)
		}
		lastLook = t
		if count != last && !(periodic && t.Sub(start) >= drainPeriodic) || pending > 0 || anyBusy(live) {
			quietSince = t
		}
		last = count
		if t.Sub(quietSince) >= drainQuiet || t.Sub(start) >= drainBound {
			return
		}
		if i < 10 {
			runtime.Gosched()
		} else {
			time.Sleep(time.Millisecond)
		}
	}
}

// drainTicks is how many separate bursts of events a goroutine records
// during Drain before its further bursts no longer hold Drain: see
// onlyPeriodic. They hold it for drainPeriodic still: what a ticker's
// loop does can change with the clock, not with its count of ticks
// (timedmap's TestSize sets entries that expire 50 ms later and returns
// at once: its race is with the cleaner's delete some 5 ticks after the
// test's end).
const (
	drainTicks    = 3
	drainPeriodic = 200 * time.Millisecond
)

// drainSeen is what Drain's looks saw of one goroutine: its emits at the
// last look, the last look that found it had emitted, and how many bursts
// (looks that found it had emitted after one that found it had not) so far.
type drainSeen struct {
	emits  uint64
	look   int
	bursts int
	scan   int
}

// onlyPeriodic reports, with mu held, at look number look of Drain (0:
// the first, which only notes what each goroutine had emitted), whether
// the events recorded since the previous look all come from goroutines
// that have already recorded drainTicks separate bursts since Drain
// began, none of them new or ended since. Such a goroutine is woken from
// outside the test again and again, between looks that found it silent: a
// ticker's loop (timedmap's cleaner ticks every 10 ms, each tick a locked
// sweep of the map, against the 20 ms of silence Drain waited for, so each
// test's recording took the whole bound, 1 s). Its next bursts repeat
// what the trace already holds after the test's end, so they need not
// hold Drain; everything else still does. A goroutine at work without
// pause (a pipeline, a busy loop) emits at every look: one burst only.
func (w *recorder) onlyPeriodic(seen map[*Goroutine]*drainSeen, self int64, look int) bool {
	ok := look > 0
	for _, g := range w.gmap {
		if g.goid == self {
			continue
		}
		s := seen[g]
		if s == nil {
			s = &drainSeen{look: -2}
			seen[g] = s
			if look == 0 {
				s.emits = g.emits
			}
		}
		s.scan = look
		if g.emits == s.emits {
			continue
		}
		s.emits = g.emits
		if s.look < look-1 {
			s.bursts++
		}
		s.look = look
		if s.bursts < drainTicks {
			ok = false
		}
	}
	for g, s := range seen {
		if s.scan != look {
			delete(seen, g) // ended since the last look
			ok = false
		}
	}
	return ok
}

// addKid remembers a goroutine started through Go, for Drain. The list is
// pruned of ended goroutines as it grows, so that a test starting many
// short goroutines keeps it short.
func (w *recorder) addKid(g *Goroutine) {
	if len(w.kids) >= 64 && len(w.kids) == cap(w.kids) {
		keep := w.kids[:0]
		for _, k := range w.kids {
			if k.goid == 0 || w.gmap[k.goid] == k {
				keep = append(keep, k)
			}
		}
		for i := len(keep); i < len(w.kids); i++ {
			w.kids[i] = nil
		}
		w.kids = keep
	}
	w.kids = append(w.kids, g)
}

// dropKidLocked forgets, with mu held, a goroutine forked through Go
// that will never begin (CtxAfterFuncAt's and TimerStop's stops).
func dropKidLocked(g *Goroutine) {
	w := rec
	if w == nil || g.w != w || g.goid != 0 {
		return
	}
	for i, k := range w.kids {
		if k == g {
			n := copy(w.kids[i:], w.kids[i+1:])
			w.kids[i+n] = nil
			w.kids = w.kids[:i+n]
			return
		}
	}
}

// liveKids returns, with mu held, the number of goroutines forked through
// Go that have not begun yet, and the runtime ids of those that began and
// have not ended (other than self). Ended ones are dropped from w.kids.
// With until (Unix nanoseconds) not 0, a timer's callback due after it
// (Goroutine.due) is not counted as pending: it cannot begin before.
func (w *recorder) liveKids(self, until int64) (pending int, live map[int64]bool) {
	live = map[int64]bool{}
	keep := w.kids[:0]
	for _, g := range w.kids {
		switch {
		case g.goid == 0:
			if until == 0 || g.due == 0 || g.due <= until {
				pending++
			}
		case w.gmap[g.goid] != g:
			continue // ended (End forgets it)
		case g.goid != self:
			live[g.goid] = true
		}
		keep = append(keep, g)
	}
	for i := len(keep); i < len(w.kids); i++ {
		w.kids[i] = nil
	}
	w.kids = keep
	return pending, live
}

// anyBusy reports whether one of the goroutines with the given runtime ids
// is running, runnable, sleeping or in a system call, rather than blocked
// on synchronization or I/O (from the goroutine headers of runtime.Stack).
func anyBusy(ids map[int64]bool) bool {
	if len(ids) == 0 {
		return false
	}
	return eachHeader(func(id int64, state string) bool { return ids[id] && !blockedState(state) })
}

// eachHeader calls f with the id and state of each goroutine header of a
// dump of all goroutines, until f returns true, and reports whether it
// did.
func eachHeader(f func(id int64, state string) bool) bool {
	buf := allStacks(nil, 64<<20)
	for len(buf) > 0 {
		line := buf
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			line, buf = buf[:i], buf[i+1:]
		} else {
			buf = nil
		}
		if id, state, ok := parseGoroutineHeader(line); ok && f(id, state) {
			return true
		}
	}
	return false
}

// parseGoroutineHeader parses "goroutine 12 [chan receive, 2 minutes]:".
func parseGoroutineHeader(line []byte) (id int64, state string, ok bool) {
	const prefix = "goroutine "
	if !bytes.HasPrefix(line, []byte(prefix)) {
		return 0, "", false
	}
	rest := line[len(prefix):]
	i := bytes.IndexByte(rest, ' ')
	if i <= 0 {
		return 0, "", false
	}
	id, err := strconv.ParseInt(string(rest[:i]), 10, 64)
	if err != nil {
		return 0, "", false
	}
	rest = rest[i+1:]
	if len(rest) == 0 || rest[0] != '[' {
		return 0, "", false
	}
	end := bytes.IndexAny(rest, ",]")
	if end < 0 {
		return 0, "", false
	}
	return id, string(rest[1:end]), true
}

// blockedState reports whether a goroutine in this runtime wait state waits
// for another goroutine (or for I/O), as opposed to being about to run.
func blockedState(s string) bool {
	for _, p := range []string{"chan ", "select", "sync.", "semacquire", "IO wait", "sync.Cond.Wait", "sleep (synctest)"} {
		if len(s) >= len(p) && s[:len(p)] == p {
			return true
		}
	}
	return false
}

// drainReplay is Drain under a replay schedule, until deadline.
func drainReplay(deadline time.Time) {
	mu.Lock()
	defer mu.Unlock()
	r, w := rp, rec
	if r == nil || w == nil {
		return
	}
	lastCheck := time.Now() // the first look after drainQuiet
	var buf []byte
	for !r.free && time.Now().Before(deadline) {
		me := w.gmap[curGoid()]
		if me != nil && r.pending == me && !r.pendingEmit {
			// Our last plain access is done: pass the turn on now rather
			// than after pendingGrace.
			r.pending = nil
			r.advance()
			continue
		}
		if r.cursor >= len(r.s.Steps) || me != nil && r.s.Steps[r.cursor].G == me.name {
			return
		}
		next := r.s.Steps[r.cursor].G
		mu.Unlock()
		time.Sleep(time.Millisecond)
		// A look is a dump of every goroutine: once per drainQuiet, not
		// once per millisecond.
		if time.Since(lastCheck) >= drainQuiet {
			lastCheck = time.Now()
			if waitsForTest(w, next, &buf) {
				// The next step's goroutine waits in package testing: a
				// subtest paused by t.Parallel until this test returns,
				// as the recording's drain let it (conc's pool tests:
				// every replay held here for the whole bound, 1 s).
				mu.Lock()
				return
			}
		}
		mu.Lock()
		if rp != r || rec != w {
			return
		}
	}
}

// waitsForTest reports whether the goroutine named g waits in package
// testing (a goroutine dump; mu not held).
func waitsForTest(w *recorder, g string, buf *[]byte) bool {
	mu.Lock()
	id := int64(0)
	if x := w.goroutineNamed(g); x != nil {
		id = x.goid
	}
	mu.Unlock()
	if id == 0 {
		return false
	}
	if *buf == nil {
		*buf = make([]byte, 64<<10)
	}
	var gs []gstate
	gs, *buf = dumpGoroutines(*buf)
	for _, x := range gs {
		if x.id == id {
			return x.testing
		}
	}
	return false
}

// drainFreed, after drainReplay, holds the test goroutine (until deadline)
// while a goroutine the test started is runnable after a replay's verdict:
// the schedule let it go, and what it does next may be the anomaly's
// consequence. closelog's Log is released at its send just as the close
// before it decides the verdict; the send then panics, but the test
// goroutine went on to return, and under load the process ended (or the
// next listed replay began: leftRunning waits 50 ms) before the panic
// ran, so the race was reported without its panic in some runs. Only
// runnable goroutines are waited for: one that sleeps or waits (a
// ticker's loop, a leaked sender) would hold every replay for the bound,
// and its timing is the program's own, as in the recorded run. So is the
// callback of a time.AfterFunc timer not yet due: it sleeps until then
// (cache2go's 1 s expiry timer held each reproduced replay of a generated
// driver for the whole bound, 7 s of its package's replays); one already
// due is about to run and is waited for. A timer left pending still makes
// the list's process stop taking replays (leftRunning). A failed
// schedule's process exits at once (exitPruned): nothing to wait for.
func drainFreed(deadline time.Time) {
	self := curGoid()
	var buf []byte
	for time.Now().Before(deadline) {
		mu.Lock()
		r, w := rp, rec
		if r == nil || w == nil || !r.free {
			mu.Unlock()
			return
		}
		switch r.final.Verdict {
		case "reproduced", "interrupted", "explored":
		default:
			mu.Unlock()
			return
		}
		pending, live := w.liveKids(self, vnow().UnixNano())
		mu.Unlock()
		if pending == 0 && !anyRunnable(live, &buf) {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// anyRunnable reports whether one of the goroutines with the given runtime
// ids is running or runnable (not sleeping, waiting or in a system call).
func anyRunnable(ids map[int64]bool, buf *[]byte) bool {
	if len(ids) == 0 {
		return false
	}
	if *buf == nil {
		*buf = make([]byte, 64<<10)
	}
	var gs []gstate
	gs, *buf = dumpGoroutines(*buf)
	for _, g := range gs {
		if ids[g.id] && (g.state == "running" || g.state == "runnable") {
			return true
		}
	}
	return false
}
