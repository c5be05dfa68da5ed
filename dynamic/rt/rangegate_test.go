//go:build linux || darwin

package rt

import (
	"sync"
	"testing"
	"time"
	"unsafe"
)

const (
	rgGo int32 = 3000 + iota // after vclock_test.go's 2900…
	rgSend
	rgRecv
	rgW1
	rgW2
	rgClose
)

var _ = Register(rgGo, []Site{
	{Pos: "rg.go:1:1", Obj: "go"},
	{Pos: "rg.go:2:1", Obj: "chan"},
	{Pos: "rg.go:3:1", Obj: "chan"},
	{Pos: "rg.go:4:1", Obj: "x"},
	{Pos: "rg.go:5:1", Obj: "x"},
	{Pos: "rg.go:6:1", Obj: "chan"},
})

// rangePoolProg: two workers range over one unbuffered channel, the
// first in its loop (in the runtime's queue of receivers) well before
// the second starts; g1 sends one value and writes x, the worker that
// got it writes x. gated: the loops gate each receive (RangeGate, as the
// instrumenter writes them now); else they record it only once received
// (Received at the body's start, as it wrote them before). It returns
// which worker got the value (1 or 2).
func rangePoolProg(gated bool) func() bool {
	return func() bool {
		x := heap[int]()
		c := make(chan int)
		got := make([]int, 3)
		var wg sync.WaitGroup
		for w := 1; w <= 2; w++ {
			wg.Add(1)
			id := Go(rgGo)
			go func() {
				Begin(id)
				defer wg.Done()
				defer End()
				if gated {
					RangeGate(c, rgRecv)
				}
				for v := range c {
					if gated {
						RangeRecv(c, true, rgRecv)
					} else {
						Received(c, true, rgRecv)
					}
					got[w] += v
					W(unsafe.Pointer(x), rgW1)
					*x = w
					if gated {
						RangeGate(c, rgRecv)
					}
				}
			}()
			time.Sleep(20 * time.Millisecond)
		}
		Send(c, 1, rgSend)
		W(unsafe.Pointer(x), rgW2)
		*x = 3
		Close(c, rgClose)
		wg.Wait()
		return got[2] == 1
	}
}

// TestReplayRangeReceiverChosen: the schedule hands the send to the
// second worker. Gated, the first waits at its gate and the second gets
// it; recorded only once received, both wait in the channel and the
// runtime gives it to the first, which waited longest: the replay
// diverges (a worker pool's schedules did, issue 29).
func TestReplayRangeReceiverChosen(t *testing.T) {
	p := writeSchedule(t, "anomaly race/WW 7 8\n"+
		"g1 fork @rg.go:1:1 n=1\n"+
		"g1.1 begin n=1\n"+
		"g1 fork @rg.go:1:1 n=2\n"+
		"g1.2 begin n=1\n"+
		"g1 send chan#1 @rg.go:2:1 n=1\n"+
		"g1.2 recv chan#1 @rg.go:3:1 n=1\n"+
		"g1 write x @rg.go:5:1 n=1\n"+
		"g1.2 write x @rg.go:4:1 n=1\n")
	v, second, _ := replayOnce(t, p, rangePoolProg(true))
	if v.Verdict != "reproduced" || !second {
		t.Errorf("gated: verdict %+v, second worker got the value: %v; want reproduced, true", v, second)
	}
	v, second, _ = replayOnce(t, p, rangePoolProg(false))
	if v.Verdict == "reproduced" || second {
		t.Errorf("not gated: verdict %+v, second worker got the value: %v; want the first to get it, and no reproduction", v, second)
	}
}
