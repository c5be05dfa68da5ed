package rt

import (
	"sync"
	"time"
	_ "unsafe" // go:linkname
)

// park is where a replay holds goroutines (a sync.Cond on mu). A goroutine
// of a testing/synctest bubble must not park on a sync.Cond: the replay
// wakes it from outside its bubble too (the watcher passing a turn on or
// deciding, a goroutine outside the bubble taking its step), and the
// runtime ends the process for that ("semaphore wake of synctest
// goroutine from outside bubble"; dynamic/rt's TestReplayBubble died of
// it once in five runs on a loaded machine). Such a goroutine waits on a
// mutex of its own instead, which anyone may unlock.
//
// To the bubble, a goroutine waiting on a mutex is not durably blocked:
// the bubble's clock does not move while the replay holds one of its
// goroutines, as it would not while that goroutine ran. A schedule that
// needs the clock to move while one is held (a sleeper's step before the
// held one's) stalls, as no run of that test could take it.
type park struct {
	c    *sync.Cond
	held []*sync.Mutex // waiters in a bubble, each locked until woken (under mu)
}

func newPark() *park { return &park{c: sync.NewCond(&mu)} }

// Wait is sync.Cond.Wait, with mu held.
func (p *park) Wait() {
	if !inBubble() {
		p.c.Wait()
		return
	}
	m := new(sync.Mutex)
	m.Lock()
	p.held = append(p.held, m)
	mu.Unlock()
	p.hold(m)
	mu.Lock()
}

// hold waits for m's unlock (wakeHeld): a frame of its own, which tells
// a dump's reader (parkRelock) the held goroutine from one that was woken
// and waits for mu in Wait's next line.
//
//go:noinline
func (p *park) hold(m *sync.Mutex) {
	m.Lock()
}

// Signal wakes a waiter (all of those in a bubble: every Wait is in a
// loop on its condition), with mu held.
func (p *park) Signal() {
	p.c.Signal()
	p.wakeHeld()
}

// Broadcast wakes every waiter, with mu held.
func (p *park) Broadcast() {
	p.c.Broadcast()
	p.wakeHeld()
}

func (p *park) wakeHeld() {
	for _, m := range p.held {
		m.Unlock()
	}
	p.held = p.held[:0]
}

// nanotime is the runtime's monotonic clock: real time even inside a
// synctest bubble, where time.Now reads the bubble's fake clock (and
// carries no monotonic reading, so a Sub between the two clocks is
// decades). The replay's bounds (a stall, a grace, a hold) are on the
// real clock whichever goroutine took the time: a stall measured from a
// bubble goroutine's fake lastMove fired at the watcher's next tick.
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64

var (
	realEpoch = time.Now()
	nanoEpoch = nanotime()
)

// realNow is time.Now on the real clock, with a monotonic reading: time.Now
// itself outside a bubble.
func realNow() time.Time {
	if t := time.Now(); t != t.Round(0) {
		return t
	}
	return realEpoch.Add(time.Duration(nanotime() - nanoEpoch))
}
