package rt

import "time"

// Virtual time for replay. Instrumented code calls Sleep for time.Sleep.
// Outside replay it is time.Sleep. Under replay a sleeper still wakes when
// its time is up, but as soon as nothing else can move (every goroutine
// waits at a gate, in a recorded operation or in another sleep; stuck.go)
// the scheduler wakes the one due first, so a replay does not wait out the
// sleeps a test uses to order its goroutines. This is sound: a sleep only
// promises not to return early by the clock, and no other goroutine of the
// program moved meanwhile, so the program sees what a run in which the
// other goroutines were that slow would see (only time.Now can tell).

type sleeper struct {
	until time.Time
	name  string // the sleeping goroutine, for a deterministic order
	seq   uint64
	wake  chan struct{}
}

// Sleep pauses the calling goroutine for at least d (time.Sleep), and
// under replay at most until nothing else can move.
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
	name := ""
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
	r.sleepSeq++
	s := &sleeper{until: time.Now().Add(d), name: name, seq: r.sleepSeq, wake: make(chan struct{})}
	r.sleepers[s] = true
	r.moves++
	mu.Unlock()
	t := time.NewTimer(d)
	select {
	case <-t.C:
	case <-s.wake:
	}
	t.Stop()
	mu.Lock()
	delete(r.sleepers, s)
	r.moves++
	mu.Unlock()
}

// earliestSleeper returns the sleeper due first (by time, then goroutine
// name and order of sleeping), or nil.
func (r *replayer) earliestSleeper() *sleeper {
	var best *sleeper
	for s := range r.sleepers {
		if s.wake == nil {
			continue
		}
		if best == nil || s.until.Before(best.until) || s.until.Equal(best.until) && (s.name < best.name || s.name == best.name && s.seq < best.seq) {
			best = s
		}
	}
	return best
}

// wake ends a sleep now.
func (r *replayer) wake(s *sleeper) {
	close(s.wake)
	s.wake = nil
	r.moves++
}

// AfterFuncAt returns time.AfterFunc for the call at site, with the
// callback's goroutine forked at the call: the call happens before the
// callback runs (Go's memory model), which a goroutine the timer starts
// would otherwise not show, and a write before the call would be taken
// for a race with the callback. A callback that runs again after Reset is
// a goroutine of its own, with no such edge.
func AfterFuncAt(site int32) func(time.Duration, func()) *time.Timer {
	return func(d time.Duration, f func()) *time.Timer {
		g := Go(site)
		if g == nil {
			return time.AfterFunc(d, f)
		}
		return time.AfterFunc(d, func() {
			Begin(g)
			defer End()
			f()
		})
	}
}
