package rt

import (
	"sync"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// TestObserveBlocked: a goroutine the test started that is blocked in a
// send at the test's end is written after the events, marked blocked;
// one that completed its send, or sleeps, is not.
func TestObserveBlocked(t *testing.T) {
	done := recordTo(t)
	stuck := make(chan int)
	ok := make(chan int, 1)
	for _, f := range []func(){
		func() { Send(stuck, 1, sSend) },              // g1.1: nobody receives
		func() { Send(ok, 1, sSend) },                 // g1.2: buffered
		func() { time.Sleep(300 * time.Millisecond) }, // g1.3: sleeps, then ends within the drain
	} {
		id := Go(sGo)
		go func() {
			Begin(id)
			defer End()
			f()
		}()
	}
	Drain()
	observeBlocked()
	tr := done()
	if len(tr.Blocked) != 1 {
		t.Fatalf("%d blocked operations, want 1: %v\n%s", len(tr.Blocked), tr.Blocked, text(tr, 50))
	}
	b := tr.Blocked[0]
	if g := tr.Goroutines[b.G]; g != "g1.1" || b.Op != trace.Send || b.Flags != trace.FlagBlocked {
		t.Errorf("blocked %s %s flags %#x, want g1.1 send %#x", g, b.Op, b.Flags, trace.FlagBlocked)
	}
	for _, e := range tr.Events {
		if e.Flags&trace.FlagBlocked != 0 {
			t.Errorf("a blocked operation among the events: %v", e)
		}
	}
	<-stuck // let g1.1 go
	time.Sleep(350 * time.Millisecond)
}

// TestObserveBlockedSync: goroutines blocked at the test's end in a
// Mutex's Lock, an RWMutex's RLock, a WaitGroup's Wait and a Cond's Wait
// are written as blocked lock, rlock, wg-wait and cond-wait events; a
// Lock that took the mutex at once and a Wait on a zero counter are not.
func TestObserveBlockedSync(t *testing.T) {
	done := recordTo(t)
	m, free := heap[sync.Mutex](), heap[sync.Mutex]()
	rw := heap[sync.RWMutex]()
	wg := heap[sync.WaitGroup]()
	zero := heap[sync.WaitGroup]()
	c := sync.NewCond(heap[sync.Mutex]())
	sink = append(sink, c)
	m.Lock()
	rw.Lock()
	WGAdd(wg, 1, sWGAdd)
	for _, f := range []func(){
		func() { Lock(m, sLock) },                     // g1.1
		func() { RLock(rw, sLock) },                   // g1.2
		func() { WGWait(wg, sWGWait) },                // g1.3
		func() { c.L.Lock(); CondWait(c, sCondWait) }, // g1.4
		func() { Lock(free, sLock); free.Unlock() },   // g1.5: takes it at once
		func() { WGWait(zero, sWGWait) },              // g1.6: nothing to wait for
	} {
		id := Go(sGo)
		go func() {
			Begin(id)
			defer End()
			f()
		}()
	}
	Drain()
	observeBlocked()
	tr := done()
	want := map[string]trace.Op{"g1.1": trace.Lock, "g1.2": trace.RLock, "g1.3": trace.WGWait, "g1.4": trace.CondWait}
	if len(tr.Blocked) != len(want) {
		t.Fatalf("%d blocked operations, want %d: %v\n%s", len(tr.Blocked), len(want), tr.Blocked, text(tr, 60))
	}
	for _, b := range tr.Blocked {
		g := tr.Goroutines[b.G]
		if op, ok := want[g]; !ok || b.Op != op || b.Flags != trace.FlagBlocked {
			t.Errorf("blocked %s %s flags %#x, want %s", g, b.Op, b.Flags, want[g])
		}
	}
	// Let them go.
	m.Unlock()
	rw.Unlock()
	WGDone(wg, sWGDone)
	c.L.Lock()
	c.Broadcast()
	c.L.Unlock()
	time.Sleep(50 * time.Millisecond)
}
