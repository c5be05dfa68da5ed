package rt

import (
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
	"unsafe"
)

// sleepersRun runs two goroutines, g1.1 sleeping 4 ms and g1.2 8 ms,
// each writing c.n after its sleep (and after between, for g1.1: what a
// late thread does before its next operation), and returns the goroutine
// whose write came first, in the run and in the trace, and how long g1.2
// took.
func sleepersRun(t *testing.T, between func()) (first, traced string, took time.Duration) {
	t.Helper()
	return waitersRun(t, func() { Sleep(4 * time.Millisecond) }, between, false)
}

// waitersRun is sleepersRun with g1.1's 4 ms wait made by wait; held
// says whether it may leave events held in the reorder buffer to the end
// (a timer's receive: no send of it is recorded).
func waitersRun(t *testing.T, wait, between func(), held bool) (first, traced string, took time.Duration) {
	t.Helper()
	if t.Name() != "TestWakeOrderBound" && !strings.HasPrefix(t.Name(), "TestWakeOrderBound/") && t.Name() != "TestWakeOrderAllLate" {
		// The order, not the bound, is tested: a loaded machine may run
		// the late goroutine later than wakeWait.
		defer func(d time.Duration) { wakeWait = d }(wakeWait)
		wakeWait = 10 * time.Second
	}
	read := recordForced(t)
	c := heap[struct{ n int }]()
	var (
		wg    sync.WaitGroup
		order sync.Mutex // not recorded: the run's own order of the writes
	)
	wrote := func(name string) {
		order.Lock()
		if first == "" {
			first = name
		}
		order.Unlock()
	}
	wg.Add(2)
	a := Go(sGo)
	go func() {
		Begin(a)
		defer End()
		defer wg.Done()
		wait()
		between()
		W(unsafe.Pointer(&c.n), sWrite)
		wrote("g1.1")
	}()
	// g1.2's sleep begins after g1.1's wait does: on a loaded machine
	// g1.1 may not run before g1.2's 8 ms are up, and then g1.2's sleep
	// does end first.
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Microsecond) {
		mu.Lock()
		armed := a.sleep != nil || len(rec.timerDue) > 0
		mu.Unlock()
		if armed {
			break
		}
	}
	b := Go(sGo)
	start := time.Now()
	go func() {
		Begin(b)
		defer End()
		defer wg.Done()
		Sleep(8 * time.Millisecond)
		W(unsafe.Pointer(&c.n), sWrite)
		wrote("g1.2")
		took = time.Since(start)
	}()
	wg.Wait()
	tr, forced := read()
	if forced != 0 && !held {
		t.Errorf("%d events forced out of the reorder buffer", forced)
	}
	for _, l := range lines(tr) {
		switch l {
		case "g1.1 write Counter.n#1", "g1.2 write Counter.n#1":
			return first, l[:4], took
		}
	}
	t.Fatalf("no write recorded:\n%s", text(tr, 100))
	return "", "", 0
}

// TestWakeOrderLateTimer: the 4 ms sleeper's thread runs 30 ms late (its
// timer fired; it has not run), and the 8 ms sleeper waits for it: the
// trace has the writes in the order of the sleeps' deadlines, not the
// loaded machine's.
func TestWakeOrderLateTimer(t *testing.T) {
	sleepWoke = func(name string) {
		if name == "g1.1" {
			time.Sleep(30 * time.Millisecond)
		}
	}
	defer func() { sleepWoke = nil }()
	if first, traced, _ := sleepersRun(t, func() {}); first != "g1.1" || traced != "g1.1" {
		t.Errorf("%s wrote first, %s in the trace; want g1.1, whose sleep ended first", first, traced)
	}
}

// TestWakeOrderAllLate: both sleepers' threads run late, the 8 ms one
// 300 ms late and the 4 ms one 320 ms: the later sleeper waits for the
// earlier one, though it wakes more than wakeWait past that one's
// deadline (a machine under load 45 did so).
func TestWakeOrderAllLate(t *testing.T) {
	sleepWoke = func(name string) {
		switch name {
		case "g1.1":
			time.Sleep(320 * time.Millisecond)
		case "g1.2":
			time.Sleep(300 * time.Millisecond)
		}
	}
	defer func() { sleepWoke = nil }()
	defer func(d time.Duration) { wakeWait = d }(wakeWait)
	// Less than g1.2's wake (308 ms) past g1.1's deadline (4 ms), as the
	// case needs; 250, not 150: g1.1's thread may run more than 130 ms
	// later still on a loaded machine (1 of 10 runs at load 28-33).
	wakeWait = 250 * time.Millisecond
	if first, traced, _ := sleepersRun(t, func() {}); first != "g1.1" || traced != "g1.1" {
		t.Errorf("%s wrote first, %s in the trace; want g1.1, whose sleep ended first", first, traced)
	}
}

// TestWakeOrderLateRun: the 4 ms sleeper woke in time but runs 30 ms
// before its next operation (a wait rt does not see): the 8 ms sleeper
// waits for its write too.
func TestWakeOrderLateRun(t *testing.T) {
	if first, traced, _ := sleepersRun(t, func() { time.Sleep(30 * time.Millisecond) }); first != "g1.1" || traced != "g1.1" {
		t.Errorf("%s wrote first, %s in the trace; want g1.1, whose sleep ended first", first, traced)
	}
}

// TestWakeOrderTimer: the 4 ms waiter is a select on a time.After
// channel (lockstop's poller) that runs 30 ms late after it: the 8 ms
// sleeper waits for its next pause.
func TestWakeOrderTimer(t *testing.T) {
	quit := make(chan bool, 1) // no ticket (holdback.go): it never sends
	wait := func() {
		c := After(4 * time.Millisecond)
		SelectGate(SelCase{Site: sRecvB, Cap: cap(quit), Ch: quit}, SelCase{Site: sRecv, Cap: cap(c), Ch: c})
		select {
		case <-quit:
		case _, ok := <-c:
			Received(c, ok, sRecv)
		}
	}
	// The run's order: the trace holds g1.1's events after its receive
	// back (holdback.go: no send of a timer is recorded).
	if first, _, _ := waitersRun(t, wait, func() { time.Sleep(30 * time.Millisecond) }, true); first != "g1.1" {
		t.Errorf("%s wrote first; want g1.1, whose timer fell due first", first)
	}
}

// TestWakeOrderBound: a sleeper due first that wakes a second late, or
// wakes and then waits a second where rt does not see, holds the later
// one for wakeWait, not a second.
func TestWakeOrderBound(t *testing.T) {
	const late = time.Second
	t.Run("timer", func(t *testing.T) {
		sleepWoke = func(name string) {
			if name == "g1.1" {
				time.Sleep(late)
			}
		}
		defer func() { sleepWoke = nil }()
		if first, _, took := sleepersRun(t, func() {}); first != "g1.2" || took > late/2 {
			t.Errorf("%s wrote first, g1.2 after %v; want g1.2, after about %v", first, took, 8*time.Millisecond+wakeWait)
		}
	})
	t.Run("run", func(t *testing.T) {
		if first, _, took := sleepersRun(t, func() { time.Sleep(late) }); first != "g1.2" || took > late/2 {
			t.Errorf("%s wrote first, g1.2 after %v; want g1.2, after about %v", first, took, 8*time.Millisecond+wakeWait)
		}
	})
}

// TestWakeOrderBubble: sleepers inside a synctest bubble are left to its
// fake clock, which stands still while a goroutine yields: a sleeper
// waiting for one due first that then blocks where rt does not see (here
// a plain receive, until the later sleeper is done) would never see a
// clock bound come.
func TestWakeOrderBubble(t *testing.T) {
	read := recordTo(t)
	done := make(chan bool)
	go func() {
		defer close(done)
		synctest.Test(t, func(t *testing.T) {
			c := heap[struct{ n int }]()
			release := make(chan bool)
			var wg sync.WaitGroup
			wg.Add(2)
			a := Go(sGo)
			go func() {
				Begin(a)
				defer End()
				defer wg.Done()
				Sleep(4 * time.Millisecond)
				<-release
				W(unsafe.Pointer(&c.n), sWrite)
			}()
			b := Go(sGo)
			go func() {
				Begin(b)
				defer End()
				defer wg.Done()
				Sleep(8 * time.Millisecond)
				W(unsafe.Pointer(&c.n), sWrite)
				close(release)
			}()
			wg.Wait()
		})
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the bubble hung")
	}
	read()
}
