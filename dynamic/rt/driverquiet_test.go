package rt

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// sQuiet registers this file as instrumented code: the test goroutine's
// wait for DriverQuiet's channel is a select of "instrumented" code.
const sQuiet int32 = 1900

var _ = Register(sQuiet, []Site{{Pos: "rt/driverquiet_test.go:1:1", Obj: "chan int"}})

// quietWithin reports whether q's looks find the program quiet within d.
// It looks from the test's goroutine, which the looks' dumps leave out as
// their caller: the driver's waiting goroutine waits in instrumented code,
// but this one's frames are package rt's, which would count as busy.
func quietWithin(end time.Time, done chan struct{}, d time.Duration) bool {
	q := &driverQuiet{end: end, done: done, ch: make(chan struct{}), count: -1}
	for stop := time.Now().Add(d); time.Now().Before(stop); time.Sleep(dqEvery) {
		if q.quiet() {
			return true
		}
	}
	return false
}

// TestDriverQuiet: a recorded goroutine blocked in a receive that nothing
// will ever match makes DriverQuiet's channel close well before the
// bound, but not while a timer made through rt falls due before it, and
// at once again when that timer is stopped. Outside a recording the
// channel is nil.
func TestDriverQuiet(t *testing.T) {
	if DriverQuiet(time.Now().Add(time.Minute), nil) != nil {
		t.Fatal("not recording: want a nil channel")
	}
	read := recordTo(t)
	dueMu.Lock()
	dues, dueOf, timersUnknown = nil, nil, false
	dueMu.Unlock()

	ch := make(chan int)
	done := make(chan struct{})
	id := Go(sGo)
	go func() {
		Begin(id)
		defer End()
		defer close(done)
		Recv(ch, sRecv) // waits for a send that comes only after the test's checks
	}()

	// A timer due before the bound: the calls could still be woken.
	tm := NewTimer(3 * time.Second)
	start := time.Now()
	if quietWithin(time.Now().Add(10*time.Second), done, 800*time.Millisecond) {
		t.Fatal("quiet with a timer due before the bound")
	}
	// Stopped, it wakes nobody.
	TimerStop(tm)()
	if !quietWithin(time.Now().Add(10*time.Second), done, 3*time.Second) {
		t.Fatal("not quiet within 3s: a goroutine blocked for good, no timer due")
	}
	// A timer due after the bound does not matter.
	tm = NewTimer(time.Hour)
	defer TimerStop(tm)()
	if !quietWithin(time.Now().Add(5*time.Second), done, 3*time.Second) {
		t.Fatal("not quiet within 3s with a timer due only after the bound")
	}
	if took := time.Since(start); took > 8*time.Second {
		t.Errorf("took %v", took)
	}
	// The channel the driver selects on: closed by the looks.
	select {
	case <-DriverQuiet(time.Now().Add(5*time.Second), done):
		t.Fatal("closed while a goroutine could still move (this test's, in package rt: busy)")
	case <-time.After(600 * time.Millisecond):
	}
	// The calls returned: the looks stop, the channel stays open.
	Send(ch, 1, sSend)
	<-done
	select {
	case <-DriverQuiet(time.Now().Add(5*time.Second), done):
		t.Error("closed after the calls returned")
	case <-time.After(500 * time.Millisecond):
	}
	// A ticker makes the wake-ups unknown.
	tk := NewTicker(time.Hour)
	defer TickerStop(tk)()
	dueMu.Lock()
	unknown := timersUnknown
	dueMu.Unlock()
	if !unknown || !timerDueBefore(time.Now().Add(time.Second)) {
		t.Error("a ticker: the timers should be unknown")
	}
	read()
}

// TestDriverReplaying: a generated driver's question whether a schedule
// is replayed is answered yes only while one is (it then lets a call's
// panic end the process at once, unjudged by its later orders).
func TestDriverReplaying(t *testing.T) {
	if DriverReplaying() {
		t.Fatal("replaying before any replay")
	}
	p := filepath.Join(t.TempDir(), "s.sched")
	// A schedule whose first step never comes (TestReplayDeadlock's).
	if err := os.WriteFile(p, []byte("anomaly race/WR 1 2\ng1.2 write x @fig1.go:5:1 n=1\ng1 fork @main.go:1:1 n=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvStall, "200")
	during := false
	replayOnce(t, p, func() bool {
		during = DriverReplaying()
		return fig1()
	})
	if !during {
		t.Error("not replaying under a schedule")
	}
	if DriverReplaying() {
		t.Error("replaying after the replay")
	}
}
