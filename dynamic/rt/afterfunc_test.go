package rt

import (
	"testing"
	"time"
	"unsafe"
)

// TestAfterFuncStopDrain: a time.AfterFunc timer stopped before it fired
// leaves a forked goroutine that will never begin; Drain does not wait
// its whole bound for it (it did, a second at the end of each of redigo's
// TLS dial tests, whose handshake timeout is stopped). A Reset after the
// Stop makes the callback due again, and Drain waits for it again.
func TestAfterFuncStopDrain(t *testing.T) {
	done := recordTo(t)
	tm := AfterFuncAt(sGo)(time.Hour, func() { t.Error("stopped callback ran") })
	if !TimerStop(tm)() {
		t.Fatal("Stop did not stop the timer")
	}
	mu.Lock()
	pending, _ := rec.liveKids(curGoid(), 0)
	mu.Unlock()
	start := time.Now()
	Drain()
	el := time.Since(start)
	done()
	if pending != 0 {
		t.Errorf("%d forked goroutines pending after the timer's Stop, want 0", pending)
	}
	if el >= drainBound/2 {
		t.Errorf("Drain took %v with only a stopped timer's goroutine forked; want well under %v", el, drainBound)
	}

	done = recordTo(t)
	ran := make(chan bool)
	tm = AfterFuncAt(sGo)(time.Hour, func() { close(ran) })
	TimerStop(tm)()
	TimerReset(tm)(20 * time.Millisecond)
	mu.Lock()
	pending, live := rec.liveKids(curGoid(), 0)
	mu.Unlock()
	// On a loaded machine the 20 ms may be up before the look: the
	// callback then began (live), or ran and ended (ran is closed before
	// its End), and was counted all the same.
	select {
	case <-ran:
		pending = 1
	default:
		pending += len(live)
	}
	Drain()
	select {
	case <-ran:
	default:
		t.Error("Drain returned before the callback of a timer Reset after its Stop ran")
	}
	done()
	if pending != 1 {
		t.Errorf("%d forked goroutines pending after Reset, want 1", pending)
	}
}

// TestAfterFuncDueDrain: Drain waits for the callback of a timer due
// within its bound (its accesses are in the trace), and not for one due
// after it, which could not begin before the bound anyway.
func TestAfterFuncDueDrain(t *testing.T) {
	done := recordTo(t)
	n := heap[int]()
	AfterFuncAt(sGo)(30*time.Millisecond, func() {
		W(unsafe.Pointer(n), sWrite)
		*n = 1
	})
	Drain()
	tr := done()
	if !hasWrite(tr, "g1.1") {
		t.Errorf("the callback of a timer due within Drain's bound did not run before it returned:\n%s", text(tr, 50))
	}

	done = recordTo(t)
	tm := AfterFuncAt(sGo)(time.Hour, func() { t.Error("a timer due in an hour ran") })
	start := time.Now()
	Drain()
	el := time.Since(start)
	done()
	TimerStop(tm)()
	if el >= drainBound/2 {
		t.Errorf("Drain took %v with only a timer due in an hour forked; want well under %v", el, drainBound)
	}
}
