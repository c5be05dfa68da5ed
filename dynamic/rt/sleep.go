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
// move and no event of the clock is due before it.
func Sleep(d time.Duration) {
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
	if rec != nil {
		g := rec.cur()
		name = g.name
		if r.pending == g && !r.pendingEmit && !r.free {
			// Its plain access (passed at its next gate) is done: the
			// sleep is that gate. Held until the sleep's end, the turn
			// made every sleeping worker of a pool wait for the one
			// before it (ants: a thousand 10 ms tasks, 25 s a replay).
			r.pending = nil
			r.advance()
		}
	}
	wake := make(chan struct{})
	armAt(vnow().Add(d), name, func() { close(wake) })
	r.moves++
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
func AfterFuncAt(site int32) func(time.Duration, func()) *time.Timer {
	return func(d time.Duration, f func()) *time.Timer {
		g := Go(site)
		if g == nil {
			return afterFunc(d, f)
		}
		return afterFunc(d, func() {
			Begin(g)
			defer End()
			f()
		})
	}
}
