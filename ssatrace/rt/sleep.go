package rt

import (
	"fmt"
	"time"
)

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
		name = rec.cur().name
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
	if rp == r && !r.free && r.starved == "" && name != "" {
		r.starved = r.heldThrough(name, d)
	}
	mu.Unlock()
}

// heldThrough (mu held, as goroutine name wakes from a sleep of d while
// the schedule runs) describes a goroutine that waits at its gate for a
// step the schedule puts after the sleeper's next one: that goroutine,
// ready to run, was held for the whole sleep (virtual or not), which in a
// real run would have let it act. A test that sleeps to let a background
// goroutine act (pond: sleep 50 ms, then the idle worker must have been
// purged by a 1 ms ticker) then fails for the hold alone. The schedule is
// feasible (goroutines may be that slow), so an anomaly it reproduces
// stands, but the program's failure is no evidence of the anomaly's
// effect (Verdict.Starved). "" when there is none.
func (r *replayer) heldThrough(name string, d time.Duration) string {
	mine, i := r.proj[name], r.next[name]
	if i >= len(mine) || r.freed[name] {
		return "" // the sleeper has no step left: it is held after waking too
	}
	ns := mine[i]
	best, bestG := -1, ""
	for g, st := range r.waiting {
		gm, gi := r.proj[g], r.next[g]
		if g == name || r.freed[g] || gi >= len(gm) {
			continue // no step left: it would only wait for the schedule's end
		}
		j := gm[gi]
		if j <= ns || st.Key() != r.s.Steps[j].Key() {
			continue
		}
		if best < 0 || j < best || j == best && g < bestG {
			best, bestG = j, g
		}
	}
	if best < 0 {
		return ""
	}
	return fmt.Sprintf("goroutine %s, ready at step %d (%s), was held while %s slept %v before its step %d", bestG, best+1, r.s.Steps[best], name, d, ns+1)
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
