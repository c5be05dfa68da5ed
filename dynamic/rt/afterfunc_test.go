package rt

import (
	"testing"
	"time"
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
	pending, _ := rec.liveKids(curGoid())
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
	pending, _ = rec.liveKids(curGoid())
	mu.Unlock()
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
