//go:build linux || darwin

package rt

import (
	"strings"
	"sync"
	"testing"
	"time"
)

const lsGoC int32 = 3800 + iota // after alone_test.go's 3700…

const (
	lsGoA = lsGoC + 1 + iota
	lsGoB
	lsLockC
	lsWait
	lsUnlockC
	lsLockA
	lsSignalA
	lsUnlockA
	lsLockB
	lsSignalB
	lsUnlockB
	lsWG
)

var _ = Register(lsGoC, []Site{
	{Pos: "ls.go:1:1", Obj: "go"},
	{Pos: "ls.go:2:1", Obj: "go"},
	{Pos: "ls.go:3:1", Obj: "go"},
	{Pos: "ls.go:4:1", Obj: "m"},
	{Pos: "ls.go:5:1", Obj: "c"},
	{Pos: "ls.go:6:1", Obj: "m"},
	{Pos: "ls.go:7:1", Obj: "m"},
	{Pos: "ls.go:8:1", Obj: "c"},
	{Pos: "ls.go:9:1", Obj: "m"},
	{Pos: "ls.go:10:1", Obj: "m"},
	{Pos: "ls.go:11:1", Obj: "c"},
	{Pos: "ls.go:12:1", Obj: "m"},
	{Pos: "ls.go:13:1", Obj: "wg"},
})

// lostSignalSched loses producer A's signal (step 6): the consumer's Wait
// entry (step 10, the unlock of c.L in Wait) comes after it. Producer B
// (g1.3) has no step: it is held at its gate until the schedule is done,
// as A at its end and the test's goroutine at its WaitGroup's Wait.
const lostSignalSched = "anomaly deadlock/lost-signal 6 10\n" +
	"g1 fork @ls.go:1:1 n=1\n" +
	"g1 fork @ls.go:2:1 n=1\n" +
	"g1 fork @ls.go:3:1 n=1\n" +
	"g1.2 begin n=1\n" +
	"g1.2 lock m#1 @ls.go:7:1 n=1\n" +
	"g1.2 cond-signal c#1 @ls.go:8:1 n=1\n" +
	"g1.2 unlock m#1 @ls.go:9:1 n=1\n" +
	"g1.1 begin n=1\n" +
	"g1.1 lock m#1 @ls.go:4:1 n=1\n" +
	"g1.1 unlock m#1 @ls.go:5:1 n=1\n"

// What producer B does in lostSignalProg.
const (
	bGives   = iota // counts an item and signals
	bSignals        // signals without an item
	bSilent         // takes m and lets it go, no signal
)

// lostSignalProg: a consumer (g1.1) waits on c until two items are
// counted; producers A (g1.2) and B (g1.3) each count one under m and
// signal. If B does not give (bSignals: a producer with nothing to give,
// or bSilent): A's signal lost, the consumer then waits for ever, and the
// test gives up on it after a timeout. wake, set by the program, lets the
// caller release the consumer after the replay.
func lostSignalProg(b int, wake *func()) func() bool {
	return func() bool {
		m := heap[sync.Mutex]()
		c := sync.NewCond(m)
		count := 0
		*wake = func() {
			m.Lock()
			count = 2
			c.Broadcast()
			m.Unlock()
		}
		consumed := make(chan struct{})
		idC := Go(lsGoC)
		go func() {
			Begin(idC)
			defer close(consumed)
			defer End()
			Lock(m, lsLockC)
			for count < 2 {
				CondWait(c, lsWait)
			}
			Unlock(m, lsUnlockC)
		}()
		var wg sync.WaitGroup
		wg.Add(2)
		idA := Go(lsGoA)
		go func() {
			Begin(idA)
			defer wg.Done()
			defer End()
			Lock(m, lsLockA)
			count++
			CondSignal(c, lsSignalA)
			Unlock(m, lsUnlockA)
		}()
		idB := Go(lsGoB)
		go func() {
			Begin(idB)
			defer wg.Done()
			defer End()
			time.Sleep(20 * time.Millisecond) // (recording only: replay orders)
			Lock(m, lsLockB)
			if b == bGives {
				count++
			}
			if b != bSilent {
				CondSignal(c, lsSignalB)
			}
			Unlock(m, lsUnlockB)
		}()
		WGWait(&wg, lsWG)
		select {
		case <-consumed:
		case <-time.After(time.Second):
		}
		return false
	}
}

// TestReplayLostSignalRunsFree: once a lost signal's schedule has run,
// every goroutine runs free before the verdict (replayer.lostFree).
// Producer B, held at its gate while the schedule ran, then counts the
// second item and signals, and the consumer's Wait returns: the signal
// was not lost for good, and the verdict must not be a deadlock (it was
// while the replay kept B held: condcountfixed's false report). When B
// gives nothing, the consumer is left in its Wait once the others are
// done and the verdict is the deadlock: Rewaited when B's signal woke
// the Wait of the schedule and the consumer waited again (check weighs
// that against the recorded run's end), not when B stays silent.
func TestReplayLostSignalRunsFree(t *testing.T) {
	p := writeSchedule(t, lostSignalSched)
	t.Setenv(EnvStall, "5000")
	t.Setenv(EnvQuiet, "200")
	for _, tc := range []struct {
		b                  int
		deadlock, rewaited bool
	}{{bGives, false, false}, {bSignals, true, true}, {bSilent, true, false}} {
		var wake func()
		v, _, _ := replayOnce(t, p, lostSignalProg(tc.b, &wake))
		wake()
		t.Logf("B %d: %s: %s", tc.b, v.Verdict, v.Message)
		if got := v.Verdict == "deadlock"; got != tc.deadlock {
			t.Errorf("B %d: verdict %+v, want deadlock %v", tc.b, v, tc.deadlock)
			continue
		}
		if tc.deadlock && (len(v.Deadlocked) != 1 || !strings.HasPrefix(v.Deadlocked[0], "g1.1 in cond-wait")) {
			t.Errorf("B %d: deadlocked %q, want g1.1 in its Wait", tc.b, v.Deadlocked)
		}
		if tc.deadlock && !v.AfterEnd {
			t.Errorf("B %d: AfterEnd false, want true (the test's goroutine returned before the verdict)", tc.b)
		}
		if tc.deadlock && v.Rewaited != tc.rewaited {
			t.Errorf("B %d: Rewaited %v, want %v", tc.b, v.Rewaited, tc.rewaited)
		}
		if !tc.deadlock && v.Verdict != "diverged" {
			t.Errorf("B gives one: verdict %+v, want diverged (the Wait returned)", v)
		}
	}
}
