package rt

import (
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
