//go:build linux || darwin

package rt

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

const (
	selGoSite int32 = 2500 + iota // after testgo_test.go's 2300…
	selSendSite
	selRecv
	selW1
	selW2
	selClose
)

var _ = Register(selGoSite, []Site{
	{Pos: "sel.go:1:1", Obj: "go"},
	{Pos: "sel.go:2:1", Obj: "chan"},
	{Pos: "sel.go:3:1", Obj: "chan"},
	{Pos: "sel.go:4:1", Obj: "x"},
	{Pos: "sel.go:5:1", Obj: "x"},
	{Pos: "sel.go:6:1", Obj: "chan"},
})

// selectSendProg: g1.1 sends on an unbuffered channel in a select, then
// writes x; g1 receives, then writes x.
func selectSendProg() bool {
	x := heap[int]()
	c := make(chan int)
	var wg sync.WaitGroup
	wg.Add(1)
	id := Go(selGoSite)
	go func() {
		Begin(id)
		defer wg.Done()
		defer End()
		c1 := c
		SelectGate(SelCase{Site: selSendSite, Send: true, Cap: cap(c1), Ch: c1})
		select {
		case c1 <- 1:
			Sent(c1, selSendSite)
		}
		W(unsafe.Pointer(x), selW1)
		*x = 1
	}()
	Recv(c, selRecv)
	W(unsafe.Pointer(x), selW2)
	*x = 2
	wg.Wait()
	return false
}

// TestReplaySelectUnbufferedSend: the schedule has the select's send
// before its receive. Without a gate before the select, the send waits in
// the select for the receive, which waits for the send's step: deadlock.
// SelectGate takes the turn before the select and passes it on at once.
func TestReplaySelectUnbufferedSend(t *testing.T) {
	p := writeSchedule(t, "anomaly race/WW 5 6\n"+
		"g1 fork @sel.go:1:1 n=1\n"+
		"g1.1 begin n=1\n"+
		"g1.1 send chan#1 @sel.go:2:1 n=1\n"+
		"g1 recv chan#1 @sel.go:3:1 n=1\n"+
		"g1.1 write x @sel.go:4:1 n=1\n"+
		"g1 write x @sel.go:5:1 n=1\n")
	v, _, _ := replayOnce(t, p, selectSendProg)
	if v.Verdict != "reproduced" {
		t.Fatalf("verdict %+v, want reproduced", v)
	}
}

// selectClosedProg: g1.1 closes c; g1 then sends on it in a select with
// a default and recovers the panic.
func selectClosedProg() bool {
	c := make(chan int, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	id := Go(selGoSite)
	go func() {
		Begin(id)
		defer wg.Done()
		defer End()
		Close(c, selClose)
	}()
	wg.Wait()
	func() {
		defer func() { Recovered(recover()) }()
		c1 := c
		SelectGate(SelCase{Site: selSendSite, Send: true, Cap: cap(c1), Ch: c1})
		select {
		case c1 <- 1:
			Sent(c1, selSendSite)
		default:
			SelectDefault()
		}
	}()
	return false
}

// TestRecordSelectClosedSend: a select's send that panicked on a closed
// channel is recorded, marked closed, when the panic is recovered.
func TestRecordSelectClosedSend(t *testing.T) {
	done := recordTo(t)
	selectClosedProg()
	tr := done()
	var sends []trace.Event
	for _, e := range tr.Events {
		if e.Op == trace.Send {
			sends = append(sends, e)
		}
	}
	if len(sends) != 1 || sends[0].Flags != trace.FlagClosed || tr.Sites[sends[0].Site] != "sel.go:2:1" {
		t.Fatalf("sends %+v, want one at sel.go:2:1 marked closed (sites %q)", sends, tr.Sites)
	}
}

// TestRecoveredOtherPanic: a recovered panic other than a send on a
// closed channel records nothing, and the value is returned.
func TestRecoveredOtherPanic(t *testing.T) {
	done := recordTo(t)
	err := errors.New("boom")
	var got any
	func() {
		defer func() { got = Recovered(recover()) }()
		c := make(chan int, 1)
		SelectGate(SelCase{Site: selSendSite, Send: true, Cap: 1, Ch: c})
		panic(err)
	}()
	tr := done()
	if got != err {
		t.Errorf("Recovered returned %v, want %v", got, err)
	}
	for _, e := range tr.Events {
		if e.Op == trace.Send {
			t.Errorf("recorded a send: %+v", e)
		}
	}
}

// TestReplaySelectCompletesPending: g1 writes x, then g1.1 writes x (a
// plain access, done at its next gate) and then selects on c, whose
// receive the schedule puts after g1's send. The select's gate is g1.1's next gate: it completes the
// write at once. With a goroutine busy outside recorded operations (so no
// dump finds the process idle) and pendingGrace at 20 s, a select that
// left the write pending held the schedule for the whole grace.
func TestReplaySelectCompletesPending(t *testing.T) {
	busyWithLongGrace(t)
	p := writeSchedule(t, "anomaly race/WW 3 4\n"+
		"g1 fork @sel.go:1:1 n=1\n"+
		"g1.1 begin n=1\n"+
		"g1 write x @sel.go:5:1 n=1\n"+
		"g1.1 write x @sel.go:4:1 n=1\n"+
		"g1 send chan#1 @sel.go:2:1 n=1\n"+
		"g1.1 recv chan#1 @sel.go:3:1 n=1\n")
	prog := func() bool {
		x := heap[int]()
		c := make(chan int, 1)
		var wg sync.WaitGroup
		wg.Add(1)
		id := Go(selGoSite)
		go func() {
			Begin(id)
			defer wg.Done()
			defer End()
			W(unsafe.Pointer(x), selW1)
			*x = 1
			SelectGate(SelCase{Site: selRecv, Cap: cap(c), Ch: c})
			select {
			case v, ok := <-c:
				Received(c, ok, selRecv)
				_ = v
			}
		}()
		W(unsafe.Pointer(x), selW2)
		*x = 2
		Send(c, 1, selSendSite)
		wg.Wait()
		return false
	}
	reproducedWithin(t, p, prog, 10*time.Second, "the select did not complete the pending write")
}

// TestReplayOmitCompletesPending: like the select's gate, the gate of a
// WaitGroup model event that this execution does not produce (gateOmit:
// here the Wait does not block, since the Done came first) completes the
// goroutine's pending plain access before it waits for its turn. Without
// that, the schedule stood still until pendingGrace.
func TestReplayOmitCompletesPending(t *testing.T) {
	busyWithLongGrace(t)
	p := writeSchedule(t, "anomaly race/WW 5 7\n"+
		"g1 wg-add wg#1 @sel.go:6:1 n=1\n"+
		"g1 read wg#1 @sel.go:6:1 n=1\n"+
		"g1 fork @sel.go:1:1 n=1\n"+
		"g1.1 begin n=1\n"+
		"g1.1 write x @sel.go:4:1 n=1\n"+
		"g1.1 wg-done wg#1 @sel.go:6:1 n=1\n"+
		"g1 write x @sel.go:5:1 n=1\n"+
		"g1 write wg#1 @sel.go:6:1 n=1\n"+ // the recorded Wait blocked
		"g1 wg-wait wg#1 @sel.go:6:1 n=1\n")
	prog := func() bool {
		x := heap[int]()
		wg := heap[sync.WaitGroup]()
		var join sync.WaitGroup
		join.Add(1)
		WGAdd(wg, 1, selClose)
		id := Go(selGoSite)
		go func() {
			Begin(id)
			defer join.Done()
			defer End()
			W(unsafe.Pointer(x), selW1)
			*x = 1
			WGDone(wg, selClose)
		}()
		W(unsafe.Pointer(x), selW2)
		*x = 2
		WGWait(wg, selClose)
		join.Wait()
		return false
	}
	reproducedWithin(t, p, prog, 10*time.Second, "the omitted event's gate did not complete the pending write")
}

// reproducedWithin replays the schedule at path with prog and fails the
// test unless the verdict is "reproduced" within d (why: what a slower
// replay means).
func reproducedWithin(t *testing.T, path string, prog func() bool, d time.Duration, why string) Verdict {
	t.Helper()
	start := time.Now()
	v, _, _ := replayOnce(t, path, prog)
	if v.Verdict != "reproduced" {
		t.Fatalf("verdict %+v, want reproduced", v)
	}
	if took := time.Since(start); took > d {
		t.Errorf("replay took %v: %s", took, why)
	}
	return v
}

// busyWithLongGrace sets pendingGrace to 20 s and the stall bound to a
// minute, and keeps a goroutine busy outside recorded operations until the
// test ends, so that no goroutine dump finds the process idle: a gate that
// leaves a plain access pending then holds the schedule for the grace.
func busyWithLongGrace(t *testing.T) {
	old := pendingGrace
	pendingGrace = 20 * time.Second
	t.Setenv(EnvStall, "60000")
	var stop atomic.Bool
	go func() {
		for !stop.Load() {
			runtime.Gosched()
		}
	}()
	t.Cleanup(func() {
		stop.Store(true)
		pendingGrace = old
	})
}

// selectPanicProg: g1.1 closes c; g1 then sends on it in a select with
// no other case, which panics; a deferred call writes x (a gate) before
// it recovers, as an instrumented function's unit end does.
func selectPanicProg() bool {
	x := heap[int]()
	c := make(chan int)
	id := Go(selGoSite)
	go func() {
		Begin(id)
		defer End()
		Close(c, selClose)
	}()
	func() {
		defer func() {
			W(unsafe.Pointer(x), selW2)
			*x = 2
			Recovered(recover())
		}()
		c1 := c
		SelectGate(SelCase{Site: selSendSite, Send: true, Cap: cap(c1), Ch: c1})
		select {
		case c1 <- 1:
			Sent(c1, selSendSite)
		}
	}()
	return false
}

// TestReplaySelectSendPanics: a schedule that closes the channel before
// a select's send (a predicted send on a closed channel): the select
// panics and reaches no case; the next gate, a deferred call's, records
// the send marked closed, and the replay reproduces (it diverged there,
// "the select of step 4 did write").
func TestReplaySelectSendPanics(t *testing.T) {
	p := writeSchedule(t, "anomaly race/close-send 3 4\n"+
		"g1 fork @sel.go:1:1 n=1\n"+
		"g1.1 begin n=1\n"+
		"g1.1 close chan#1 @sel.go:6:1 n=1\n"+
		"g1 send chan#1 @sel.go:2:1 n=1\n")
	v, _, tr := replayOnce(t, p, selectPanicProg)
	if v.Verdict != "reproduced" {
		t.Fatalf("verdict %+v, want reproduced", v)
	}
	var sends []trace.Event
	for _, e := range tr.Events {
		if e.Op == trace.Send {
			sends = append(sends, e)
		}
	}
	if len(sends) != 1 || sends[0].Flags != trace.FlagClosed {
		t.Fatalf("sends %+v, want one, marked closed", sends)
	}
}

// selectDefaultHandoffProg: g1.1, a worker, waits in a select to receive
// on an unbuffered channel; g1 hands it a value by a select with a
// default, then both write x. Were the default taken, g1 releases the
// worker by an unrecorded close (the replay has diverged by then).
func selectDefaultHandoffProg() bool {
	x := heap[int]()
	c := make(chan int)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	id := Go(selGoSite)
	go func() {
		Begin(id)
		defer wg.Done()
		defer End()
		c1 := c
		SelectGate(SelCase{Site: selRecv, Cap: cap(c1), Ch: c1})
		select {
		case _, ok := <-c1:
			Received(c1, ok, selRecv)
		case <-stop:
		}
		W(unsafe.Pointer(x), selW1)
		*x = 1
	}()
	c2 := c
	SelectGate(SelCase{Site: selSendSite, Send: true, Cap: cap(c2), Ch: c2}, SelCase{Site: -1, Default: true})
	select {
	case c2 <- 1:
		Sent(c2, selSendSite)
	default:
		SelectDefault()
		close(stop)
	}
	W(unsafe.Pointer(x), selW2)
	*x = 2
	wg.Wait()
	return false
}

// TestReplaySelectDefaultHandoff: the recording wrote g1's non-blocking
// send before the receive of g1.1, which was blocked in its select
// already (a passive receive is written when it next runs). The replay
// holds g1.1 at its gate until the receive's turn, so unless the send
// waits for g1.1 to park on the channel (parkPartner), the select finds
// no receiver, takes its default and the replay diverges ("the select of
// step 3 … did write"): viney-shih/goroutines' Pool.schedule, whose
// every replay diverged so.
func TestReplaySelectDefaultHandoff(t *testing.T) {
	for i := 0; i < 5; i++ {
		p := writeSchedule(t, "anomaly race/WW 5 6\n"+
			"g1 fork @sel.go:1:1 n=1\n"+
			"g1.1 begin n=1\n"+
			"g1 send chan#1 @sel.go:2:1 n=1\n"+
			"g1.1 recv chan#1 @sel.go:3:1 n=1\n"+
			"g1.1 write x @sel.go:4:1 n=1\n"+
			"g1 write x @sel.go:5:1 n=1\n")
		v, _, _ := replayOnce(t, p, selectDefaultHandoffProg)
		if v.Verdict != "reproduced" {
			t.Fatalf("run %d: verdict %+v, want reproduced", i, v)
		}
	}
}
