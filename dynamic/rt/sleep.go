package rt

import (
	"time"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// SleepAt returns time.Sleep for the call at site. The sleep is an event
// of its own (trace.Sleep), scheduled like any other: it ends the
// goroutine's unit of work (trace.Op.EndsUnit), so that no atomicity
// violation is predicted across it. A test's task that counts itself
// running, sleeps, and then adds its result under a lock (conc's pool
// tests) had its count and its result taken for one unit.
func SleepAt(site int32) func(time.Duration) {
	return func(d time.Duration) {
		if active.Load() {
			gate(nil, site, trace.Sleep)
			mu.Lock()
			if w := rec; w != nil {
				w.emit(w.cur(), trace.Event{Op: trace.Sleep, Obj: trace.NoIndex, Site: w.site(site).idx})
			}
			mu.Unlock()
		}
		Sleep(d)
	}
}

// Sleep pauses the calling goroutine for at least d (time.Sleep), on the
// program's clock under replay (vclock.go): at most until nothing else can
// move and no event of the clock is due before it. While recording, it
// keeps sleepers' wake-up order (wakeorder.go).
func Sleep(d time.Duration) {
	if rp == nil && d > 0 && active.Load() {
		sleepInOrder(d)
		return
	}
	if rp == nil || d <= 0 {
		time.Sleep(d)
		return
	}
	mu.Lock()
	r := rp
	if r == nil {
		mu.Unlock()
		time.Sleep(d)
		return
	}
	name := "~" // a sleep's event is named: "" is a timer's
	var g *Goroutine
	if rec != nil {
		g = rec.cur()
		name = g.name
		if r.pending == g && !r.pendingEmit && !r.free {
			// Its plain access (passed at its next gate) is done: the
			// sleep is that gate. Held until the sleep's end, the turn
			// made every sleeping worker of a pool wait for the one
			// before it (ants: a thousand 10 ms tasks, 25 s a replay).
			r.pending = nil
			r.advance()
		}
		if r.poller == g.name && r.sleepAtOnce(d) {
			mu.Unlock()
			return
		}
	}
	wake := make(chan struct{})
	e := armAt(vnow().Add(d), name, func() { close(wake) })
	r.moves++
	if g != nil && r.detour == g {
		r.detourSleep(g, e)
	}
	mu.Unlock()
	<-wake
	mu.Lock()
	if rp != nil {
		rp.moves++
	}
	mu.Unlock()
}

// AfterFuncAt returns time.AfterFunc for the call at site, with the
// callback's goroutine forked at the call: the call happens before the
// callback runs (Go's memory model), which a goroutine the timer starts
// would otherwise not show, and a write before the call would be taken
// for a race with the callback. A callback that runs again after Reset is
// a goroutine of its own, with no such edge. Under replay the timer is on
// the program's clock (vclock.go).
//
// A Stop that keeps the callback from running means its goroutine will
// never begin: while recording, TimerStop drops it from what Drain waits
// for (as CtxAfterFuncAt's stop does), and a Reset after it takes it back. Drain
// otherwise waited out its whole bound at the end of every test that
// stopped such a timer: redigo's TLS dials, each with a handshake
// timeout stopped once the handshake is done, took a second each to
// record. Nor does Drain wait for a callback due after its bound.
func AfterFuncAt(site int32) func(time.Duration, func()) *time.Timer {
	return func(d time.Duration, f func()) *time.Timer {
		g := Go(site)
		if g == nil {
			return afterFunc(d, f)
		}
		t := afterFunc(d, func() {
			Begin(g)
			defer End()
			f()
		})
		mu.Lock()
		noteAfterKid(t, g, d)
		mu.Unlock()
		return t
	}
}

// afterKid is the goroutine AfterFuncAt forked for a timer's callback,
// and whether a Stop dropped it from the recorder's kids.
type afterKid struct {
	g       *Goroutine
	dropped bool
}

// afterKids holds, under mu, the goroutines forked for the callbacks of
// time.AfterFunc timers (AfterFuncAt), by timer; an entry goes once its
// goroutine began or its recorder is gone (pruned as the map grows).
var afterKids map[*time.Timer]*afterKid

// noteAfterKid remembers g as the goroutine of t's callback, due after d
// (mu held).
func noteAfterKid(t *time.Timer, g *Goroutine, d time.Duration) {
	// On the program's clock: under replay the virtual one (vclock.go),
	// which drainFreed compares it with.
	g.due = vnow().Add(d).UnixNano()
	if afterKids == nil {
		afterKids = map[*time.Timer]*afterKid{}
	}
	if n := len(afterKids); n >= 64 && n&(n-1) == 0 {
		for x, k := range afterKids {
			if k.g.goid != 0 || k.g.w != rec {
				delete(afterKids, x)
			}
		}
	}
	afterKids[t] = &afterKid{g: g}
}

// stoppedAfterKid is TimerStop's word that t's callback will not run
// (mu held): its goroutine, if it has not begun, is no kid to wait for.
// Only while recording: a replay that waits for a schedule's step of
// that goroutine says it has not started (outside instrumented code), a
// deadlock whose later predictions check prunes as doomed (go-deadlock's
// lock timers: without it, TestRWMutex replayed 78 predictions, not 6).
func stoppedAfterKid(t *time.Timer) {
	if rp != nil {
		return
	}
	k := afterKids[t]
	if k == nil || k.dropped {
		return
	}
	if k.g.goid != 0 || k.g.w != rec {
		delete(afterKids, t)
		return
	}
	dropKidLocked(k.g)
	k.dropped = true
}

// resetAfterKid is TimerReset's word that t's callback may run again,
// after d (mu held): a goroutine a Stop dropped is waited for again.
func resetAfterKid(t *time.Timer, d time.Duration) {
	k := afterKids[t]
	if k == nil {
		return
	}
	if k.g.goid == 0 && k.g.due != 0 {
		k.g.due = vnow().Add(d).UnixNano()
	}
	if !k.dropped {
		return
	}
	k.dropped = false
	if w := rec; w != nil && k.g.w == w && k.g.goid == 0 {
		w.addKid(k.g)
	}
}
