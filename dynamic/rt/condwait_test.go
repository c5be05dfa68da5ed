//go:build linux || darwin

package rt

import (
	"sync"
	"testing"
	"time"
	"unsafe"
)

const cwGo int32 = 2700 + iota // after mutexword_test.go's 2600…

const (
	cwLockA = cwGo + 1 + iota
	cwWait
	cwUnlockB
	cwLock1
	cwSignal
	cwUnlock3
	cwLock4
	cwUnlock5
)

var _ = Register(cwGo, []Site{
	{Pos: "cw.go:1:1", Obj: "go"},
	{Pos: "cw.go:2:1", Obj: "m"},
	{Pos: "cw.go:3:1", Obj: "c"},
	{Pos: "cw.go:4:1", Obj: "m"},
	{Pos: "cw.go:5:1", Obj: "m"},
	{Pos: "cw.go:6:1", Obj: "c"},
	{Pos: "cw.go:7:1", Obj: "m"},
	{Pos: "cw.go:8:1", Obj: "m"},
	{Pos: "cw.go:9:1", Obj: "m"},
})

// condProg: g1.1 waits on c until ready; g1 sets ready and signals under
// m, then takes m once more.
func condProg() bool {
	m := heap[sync.Mutex]()
	c := sync.NewCond(m)
	ready := false
	var wg sync.WaitGroup
	wg.Add(1)
	id := Go(cwGo)
	go func() {
		Begin(id)
		defer wg.Done()
		defer End()
		Lock(m, cwLockA)
		for !ready {
			CondWait(c, cwWait)
		}
		Unlock(m, cwUnlockB)
	}()
	time.Sleep(10 * time.Millisecond) // (recording only: replay orders)
	Lock(m, cwLock1)
	ready = true
	CondSignal(c, cwSignal)
	Unlock(m, cwUnlock3)
	time.Sleep(20 * time.Millisecond) // g1.1 wakes meanwhile
	Lock(m, cwLock4)
	Unlock(m, cwUnlock5)
	wg.Wait()
	return false
}

// TestReplayCondWaitLock: woken by the Signal, g1.1's Wait takes m again
// as soon as g1 unlocks it, before g1.1's turn, while the schedule hands
// m to g1 first (step 8). Replay must not let the early wake keep the
// lock: the schedule is feasible and is reproduced, quickly.
func TestReplayCondWaitLock(t *testing.T) {
	p := writeSchedule(t, "anomaly av/RWR 8 10 11\n"+
		"g1 fork @cw.go:1:1 n=1\n"+
		"g1.1 begin n=1\n"+
		"g1.1 lock m#1 @cw.go:2:1 n=1\n"+
		"g1.1 unlock m#1 @cw.go:3:1 n=1\n"+
		"g1 lock m#1 @cw.go:5:1 n=1\n"+
		"g1 cond-signal c#1 @cw.go:6:1 n=1\n"+
		"g1 unlock m#1 @cw.go:7:1 n=1\n"+
		"g1 lock m#1 @cw.go:8:1 n=1\n"+
		"g1 unlock m#1 @cw.go:9:1 n=1\n"+
		"g1.1 cond-wait c#1 @cw.go:3:1 n=1\n"+
		"g1.1 lock m#1 @cw.go:3:1 n=1\n"+
		"g1.1 unlock m#1 @cw.go:4:1 n=1\n")
	t.Setenv(EnvStall, "60000")
	t.Setenv(EnvQuiet, "60000")
	start := time.Now()
	v, _, _ := replayOnce(t, p, condProg)
	took := time.Since(start)
	if v.Verdict != "reproduced" {
		t.Fatalf("verdict %+v, want reproduced", v)
	}
	if took > 10*time.Second {
		t.Errorf("the replay took %v", took)
	}
}

const (
	spGo int32 = 2720 + iota
	spRead
	spWrite
)

var _ = Register(spGo, []Site{
	{Pos: "sp.go:1:1", Obj: "go"},
	{Pos: "sp.go:2:1", Obj: "x"},
	{Pos: "sp.go:3:1", Obj: "m"},
})

// TestReplaySleepPassesTurn: a plain read's turn passes at its
// goroutine's next gate; a sleep is one. g1.1 reads x, then sleeps 1.5 s
// while another goroutine waits on a timer (so no virtual time); g1's
// lock, the next step, must not wait for the sleep. (ants' pool: each of
// a thousand workers read, then slept 10 ms in its task, one after the
// other.)
func TestReplaySleepPassesTurn(t *testing.T) {
	p := writeSchedule(t, "anomaly av/RWR 2 3 4\n"+
		"g1 fork @sp.go:1:1 n=1\n"+
		"g1.1 begin n=1\n"+
		"g1.1 read x#1 @sp.go:2:1 n=1\n"+
		"g1 lock m#1 @sp.go:3:1 n=1\n")
	t.Setenv(EnvStall, "60000")
	t.Setenv(EnvQuiet, "60000")
	old := pendingGrace
	pendingGrace = time.Minute
	defer func() { pendingGrace = old }()
	var took time.Duration
	prog := func() bool {
		x, m := heap[int](), heap[sync.Mutex]()
		stop := make(chan struct{})
		go func() { // a timer's goroutine: a soft wait
			select {
			case <-time.After(10 * time.Second):
			case <-stop:
			}
		}()
		defer close(stop)
		var wg sync.WaitGroup
		wg.Add(1)
		id := Go(spGo)
		start := time.Now()
		go func() {
			Begin(id)
			defer wg.Done()
			defer End()
			R(unsafe.Pointer(x), spRead)
			Sleep(1500 * time.Millisecond)
		}()
		Lock(m, spWrite)
		took = time.Since(start)
		m.Unlock()
		wg.Wait()
		return false
	}
	v, _, _ := replayOnce(t, p, prog)
	if v.Verdict != "reproduced" {
		t.Fatalf("verdict %+v, want reproduced", v)
	}
	if took > time.Second {
		t.Errorf("g1's lock waited %v for g1.1's sleep", took)
	}
}
