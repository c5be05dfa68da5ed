//go:build linux || darwin

package rt

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"
)

const (
	kGo int32 = 2100 + iota
	kLock1
	kUnlock1
	kLock2
	kUnlock2
	kW1
	kW2
	kRecv1
	kRecv2
	kAdd
)

var _ = Register(kGo, []Site{
	{Pos: "k.go:1:1", Obj: "go"},
	{Pos: "k.go:2:1", Obj: "m"},
	{Pos: "k.go:3:1", Obj: "m"},
	{Pos: "k.go:4:1", Obj: "m"},
	{Pos: "k.go:5:1", Obj: "m"},
	{Pos: "k.go:6:1", Obj: "x"},
	{Pos: "k.go:7:1", Obj: "x"},
	{Pos: "k.go:8:1", Obj: "chan"},
	{Pos: "k.go:9:1", Obj: "chan"},
	{Pos: "k.go:10:1", Obj: "x"},
})

// lockProg: g1 and g1.1 each lock and unlock m once.
func lockProg() bool {
	m := heap[sync.Mutex]()
	var wg sync.WaitGroup
	wg.Add(1)
	id := Go(kGo)
	go func() {
		Begin(id)
		defer wg.Done()
		defer End()
		Lock(m, kLock2)
		Unlock(m, kUnlock2)
	}()
	Lock(m, kLock1)
	Unlock(m, kUnlock1)
	wg.Wait()
	return false
}

// slow runs f and fails the test if the replay took as long as the wall
// bounds: with stall and quiet at a minute, only knowing that nothing can
// move decides in time.
func writeSchedule(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.sched")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReplayDeadlockAtOnce: a schedule that makes g1.1 lock m while g1,
// waiting at its gate for its unlock, holds it. g1.1 blocks in the
// recorded Lock, g1 waits for its turn: nothing can move, and the verdict
// comes at once, not from the stall or quiet bounds (set to a minute).
func TestReplayDeadlockAtOnce(t *testing.T) {
	p := writeSchedule(t, "anomaly race/WW 2 4\n"+
		"g1 fork @k.go:1:1 n=1\n"+
		"g1 lock m#1 @k.go:2:1 n=1\n"+
		"g1.1 begin n=1\n"+
		"g1.1 lock m#1 @k.go:4:1 n=1\n"+
		"g1 unlock @k.go:3:1 n=1\n")
	t.Setenv(EnvStall, "60000")
	t.Setenv(EnvQuiet, "60000")
	start := time.Now()
	v, _, _ := replayOnce(t, p, lockProg)
	took := time.Since(start)
	if v.Verdict != "deadlock" || v.Goroutine != "g1.1" {
		t.Fatalf("verdict %+v, want a deadlock of g1.1", v)
	}
	if !strings.Contains(strings.Join(v.Waiting, "\n"), "g1.1 blocks in Lock") {
		t.Errorf("waiting %q does not say that g1.1 blocks in Lock", v.Waiting)
	}
	if took > 10*time.Second {
		t.Errorf("the deadlock took %v to judge", took)
	}
	t.Logf("judged in %v: %s", took, v.Message)
}

// TestReplayDeadlockDroppedTicks: TestReplayDeadlockAtOnce with fast
// tickers nobody receives from, as kelindar/event's dispatcher runs one
// every 500 µs per event type while its goroutines wait at their gates.
// Their ticks, fired in real time, drop into full channels and wake
// nothing: they must not keep the replay from seeing that nothing can
// move (each such deadlock took the stall bound, then 4x it again).
func TestReplayDeadlockDroppedTicks(t *testing.T) {
	p := writeSchedule(t, "anomaly race/WW 2 4\n"+
		"g1 fork @k.go:1:1 n=1\n"+
		"g1 lock m#1 @k.go:2:1 n=1\n"+
		"g1.1 begin n=1\n"+
		"g1.1 lock m#1 @k.go:4:1 n=1\n"+
		"g1 unlock @k.go:3:1 n=1\n")
	t.Setenv(EnvStall, "60000")
	t.Setenv(EnvQuiet, "60000")
	prog := func() bool {
		for range 50 {
			defer TickerStop(NewTicker(100 * time.Microsecond))()
		}
		return lockProg()
	}
	start := time.Now()
	v, _, _ := replayOnce(t, p, prog)
	took := time.Since(start)
	if v.Verdict != "deadlock" || v.Goroutine != "g1.1" || strings.Contains(v.Message, "nothing moved") {
		t.Fatalf("verdict %+v, want a deadlock of g1.1 judged without the stall bound", v)
	}
	if took > 10*time.Second {
		t.Errorf("the deadlock took %v to judge", took)
	}
	t.Logf("judged in %v: %s", took, v.Message)
}

// TestReplayGateDeadlockAtOnce: a step of a goroutine that its parent,
// waiting at its gate, has not started yet.
func TestReplayGateDeadlockAtOnce(t *testing.T) {
	p := writeSchedule(t, "anomaly race/WR 1 2\ng1.2 write x @fig1.go:5:1 n=1\ng1 fork @main.go:1:1 n=1\n")
	t.Setenv(EnvStall, "60000")
	t.Setenv(EnvQuiet, "60000")
	start := time.Now()
	v, _, _ := replayOnce(t, p, fig1)
	took := time.Since(start)
	if v.Verdict != "deadlock" || strings.Contains(v.Message, "nothing moved") {
		t.Fatalf("verdict %+v, want a deadlock judged without the stall bound", v)
	}
	if took > 10*time.Second {
		t.Errorf("the deadlock took %v to judge", took)
	}
}

// sleepProg: g1.1 sleeps d, then writes x; g1 writes x.
func sleepProg(d time.Duration) func() bool {
	return func() bool {
		x := heap[int]()
		var wg sync.WaitGroup
		wg.Add(1)
		id := Go(kGo)
		go func() {
			Begin(id)
			defer wg.Done()
			defer End()
			Sleep(d)
			W(unsafe.Pointer(x), kW1)
			*x = 1
		}()
		W(unsafe.Pointer(x), kW2)
		*x = 2
		wg.Wait()
		return false
	}
}

// TestReplaySleepVirtual: g1.1 sleeps a minute before its write; the
// schedule puts that write before g1's. While g1 waits at its gate and
// g1.1 sleeps, nothing else can move: the sleep ends at once.
func TestReplaySleepVirtual(t *testing.T) {
	p := writeSchedule(t, "anomaly race/WW 3 4\n"+
		"g1 fork @k.go:1:1 n=1\n"+
		"g1.1 begin n=1\n"+
		"g1.1 write x @k.go:6:1 n=1\n"+
		"g1 write x @k.go:7:1 n=1\n")
	t.Setenv(EnvStall, "60000")
	start := time.Now()
	v, _, _ := replayOnce(t, p, sleepProg(time.Minute))
	took := time.Since(start)
	if v.Verdict != "reproduced" {
		t.Fatalf("verdict %+v, want reproduced", v)
	}
	if took > 20*time.Second {
		t.Errorf("the replay took %v: the sleep was not shortened", took)
	}
	// Outside replay, Sleep sleeps.
	mu.Lock()
	rp = nil
	runClock()
	mu.Unlock()
	start = time.Now()
	Sleep(20 * time.Millisecond)
	if d := time.Since(start); d < 20*time.Millisecond {
		t.Errorf("Sleep without replay returned after %v", d)
	}
}

const hangEnv = "PECANVET_RT_HANG"

// TestHangChild is TestReplayHang's child: after the schedule ran, both
// goroutines wait forever in recorded receives.
func TestHangChild(t *testing.T) {
	if getenv(hangEnv) == "" {
		t.Skip("only run by TestReplayHang")
	}
	x := heap[int]()
	ch := make(chan int)
	id := Go(kGo)
	go func() {
		Begin(id)
		defer End()
		W(unsafe.Pointer(x), kW1)
		*x = 1
		Recv(ch, kRecv1)
	}()
	W(unsafe.Pointer(x), kW2)
	*x = 2
	Recv(ch, kRecv2)
	t.Fatal("received")
}

// TestReplayHang: a program that hangs after its schedule was reproduced
// ends at once, with the verdict kept and the hang described, instead of
// waiting for the driver's timeout.
func TestReplayHang(t *testing.T) {
	if getenv(hangEnv) != "" {
		t.Skip("in the child")
	}
	dir := t.TempDir()
	sched := writeSchedule(t, "anomaly race/WW 3 4\n"+
		"g1 fork @k.go:1:1 n=1\n"+
		"g1.1 begin n=1\n"+
		"g1.1 write x @k.go:6:1 n=1\n"+
		"g1 write x @k.go:7:1 n=1\n")
	verdict := filepath.Join(dir, "verdict.json")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHangChild$", "-test.count=1", "-test.timeout=40s")
	cmd.Env = append(os.Environ(), hangEnv+"=1", EnvTrace+"="+filepath.Join(dir, "trace.bin"),
		EnvSchedule+"="+sched, EnvVerdict+"="+verdict, EnvStall+"=60000", EnvQuiet+"=60000")
	start := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(start)
	if err == nil {
		t.Fatalf("the child passed:\n%s", out)
	}
	b, rerr := os.ReadFile(verdict)
	if rerr != nil {
		t.Fatalf("no verdict: %v\n%s", rerr, out)
	}
	var v Verdict
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if v.Verdict != "reproduced" || !strings.Contains(v.Hang, "g1 blocks in Recv") || !strings.Contains(v.Hang, "g1.1 blocks in Recv") {
		t.Fatalf("verdict %+v, want reproduced with the hang of g1 and g1.1 described\n%s", v, out)
	}
	if took > 30*time.Second {
		t.Errorf("the hang took %v to end", took)
	}
}

const hangTickerEnv = "PECANVET_RT_HANG_TICKER"

// TestHangChild with a ticker nobody receives from: its ticks drop into
// its full channel.
func TestHangTickerChild(t *testing.T) {
	if getenv(hangTickerEnv) == "" {
		t.Skip("only run by TestReplayHangTicker")
	}
	defer TickerStop(NewTicker(time.Millisecond))()
	TestHangChild(t)
}

// TestReplayHangTicker: TestReplayHang with a ticker ticking into its
// full channel (goroutines' recycler, blocked in a send, left its own
// so): it can wake nothing, and the hang is called as without it, not
// at the driver's timeout.
func TestReplayHangTicker(t *testing.T) {
	if getenv(hangEnv) != "" {
		t.Skip("in the child")
	}
	dir := t.TempDir()
	sched := writeSchedule(t, "anomaly race/WW 3 4\n"+
		"g1 fork @k.go:1:1 n=1\n"+
		"g1.1 begin n=1\n"+
		"g1.1 write x @k.go:6:1 n=1\n"+
		"g1 write x @k.go:7:1 n=1\n")
	verdict := filepath.Join(dir, "verdict.json")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHangTickerChild$", "-test.count=1", "-test.timeout=40s")
	cmd.Env = append(os.Environ(), hangEnv+"=1", hangTickerEnv+"=1", EnvTrace+"="+filepath.Join(dir, "trace.bin"),
		EnvSchedule+"="+sched, EnvVerdict+"="+verdict, EnvStall+"=60000", EnvQuiet+"=60000")
	start := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(start)
	if err == nil {
		t.Fatalf("the child passed:\n%s", out)
	}
	b, rerr := os.ReadFile(verdict)
	if rerr != nil {
		t.Fatalf("no verdict: %v\n%s", rerr, out)
	}
	var v Verdict
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if v.Verdict != "reproduced" || !strings.Contains(v.Hang, "g1 blocks in Recv") || !strings.Contains(v.Hang, "g1.1 blocks in Recv") {
		t.Fatalf("verdict %+v, want reproduced with the hang of g1 and g1.1 described\n%s", v, out)
	}
	if took > 30*time.Second {
		t.Errorf("the hang took %v to end", took)
	}
}

// TestReplayUnrecordedAnomalyStep: the schedule's last step, g1.1's atomic
// add, has its turn, but the operation panics (a nil pointer; the
// goroutine recovers) and its event is never recorded. "Reproduced" needs
// that event's object; with every goroutine waiting it can never come, and
// the replay ends at once with a verdict naming the step, not at the
// driver's timeout.
func TestReplayUnrecordedAnomalyStep(t *testing.T) {
	p := writeSchedule(t, "anomaly race/WW 3 4\n"+
		"g1 fork @k.go:1:1 n=1\n"+
		"g1.1 begin n=1\n"+
		"g1 write x#1 @k.go:7:1 n=1\n"+
		"g1.1 atomic-rmw x#1 @k.go:10:1 n=1\n")
	t.Setenv(EnvStall, "60000")
	t.Setenv(EnvQuiet, "60000")
	prog := func() bool {
		x := heap[int32]()
		var nilp *int32
		var wg sync.WaitGroup
		wg.Add(1)
		id := Go(kGo)
		go func() {
			Begin(id)
			defer wg.Done()
			defer End()
			defer func() { recover() }()
			AddInt32(nilp, 1, kAdd)
		}()
		W(unsafe.Pointer(x), kW2)
		*x = 2
		WGWait(&wg, kRecv1)
		return false
	}
	start := time.Now()
	v, _, _ := replayOnce(t, p, prog)
	took := time.Since(start)
	if v.Verdict != "diverged" || !strings.Contains(v.Message, "steps 4 (") {
		t.Fatalf("verdict %+v, want diverged naming step 4", v)
	}
	if took > 10*time.Second {
		t.Errorf("judged in %v", took)
	}
	t.Logf("judged in %v: %s", took, v.Message)
}

// TestReplayRaceNotCoenabled: g1 writes x, then tells g1.1 through a
// channel the trace does not record (as I/O would), and g1.1 reads x. The
// schedule puts the write right before the read, the order they always
// run in; but the read's goroutine can only get there after the write,
// so the two are never enabled together and there is no race. The replay
// must not call it reproduced. Without the hidden channel it is one.
func TestReplayRaceNotCoenabled(t *testing.T) {
	p := writeSchedule(t, "anomaly race/WR 3 4\n"+
		"g1 fork @k.go:1:1 n=1\n"+
		"g1.1 begin n=1\n"+
		"g1 write x#1 @k.go:7:1 n=1\n"+
		"g1.1 read x#1 @k.go:6:1 n=1\n")
	t.Setenv(EnvStall, "500")
	t.Setenv(EnvQuiet, "500")
	prog := func(hidden bool) func() bool {
		return func() bool {
			x := heap[int]()
			c := make(chan bool, 1) // not recorded
			var wg sync.WaitGroup
			wg.Add(1)
			id := Go(kGo)
			go func() {
				Begin(id)
				defer wg.Done()
				defer End()
				if hidden {
					<-c
				}
				R(unsafe.Pointer(x), kW1)
				_ = *x
			}()
			W(unsafe.Pointer(x), kW2)
			*x = 1
			c <- true
			WGWait(&wg, kRecv1)
			return false
		}
	}
	if v, _, _ := replayOnce(t, p, prog(false)); v.Verdict != "reproduced" {
		t.Fatalf("without the hidden channel: verdict %+v, want reproduced", v)
	}
	v, _, _ := replayOnce(t, p, prog(true))
	if v.Verdict != "deadlock" || !strings.Contains(v.Message, "not enabled together") {
		t.Fatalf("verdict %+v, want a deadlock: not enabled together", v)
	}
	t.Log(v.Message)
}

// TestReplayUnstarted: the schedule moves a write of a goroutine that
// uninstrumented code starts (a plain go statement: the root g2) before
// its creator's write that precedes the go statement. The deadlock says
// that g2 never started (Verdict.Unstarted) and which roots had (g1),
// which check generalizes to the schedules that need any root but g1 with
// no more steps run (its doom).
func TestReplayUnstarted(t *testing.T) {
	p := writeSchedule(t, "anomaly race/WW 1 2\ng2 write x @k.go:6:1 n=1\ng1 write x @k.go:7:1 n=1\n")
	t.Setenv(EnvStall, "60000")
	t.Setenv(EnvQuiet, "50")
	prog := func() bool {
		x := heap[int]()
		W(unsafe.Pointer(x), kW2)
		*x = 2
		done := make(chan struct{})
		go func() { // not through Go: a root
			W(unsafe.Pointer(x), kW1)
			*x = 1
			close(done)
		}()
		<-done
		return false
	}
	v, _, _ := replayOnce(t, p, prog)
	if v.Verdict != "deadlock" || v.Step != 1 || !v.Outside || !v.Unstarted || strings.Join(v.Roots, " ") != "g1" {
		t.Fatalf("verdict %+v, want a deadlock at step 1 with g2 unstarted and roots g1", v)
	}
	// Started, but taking another path: not unstarted.
	p = writeSchedule(t, "anomaly race/WW 1 2\ng2 write x @k.go:6:1 n=1\ng1 write x @k.go:10:1 n=1\n")
	prog2 := func() bool {
		x := heap[int]()
		done := make(chan struct{})
		go func() {
			W(unsafe.Pointer(x), kW1)
			*x = 1
			close(done)
		}()
		<-done
		W(unsafe.Pointer(x), kW2) // not the scheduled site
		return false
	}
	v, _, _ = replayOnce(t, p, prog2)
	if v.Unstarted || len(v.Roots) > 0 {
		t.Fatalf("verdict %+v: g2 had started", v)
	}
}

// TestPendingDone: the turn of a plain access passes on past the grace
// only when its goroutine surely made the access.
func TestPendingDone(t *testing.T) {
	gs := []gstate{{id: 1, state: "runnable"}, {id: 2, state: "running"}, {id: 3, state: "chan receive"}, {id: 4, state: "preempted"}, {id: 5, state: "syscall"}}
	for _, c := range []struct {
		goid int64
		held time.Duration
		want bool
	}{
		{1, time.Second, false}, // it may not have run since R or W returned
		{4, time.Second, false},
		{2, 20 * time.Millisecond, false},
		{2, pendingLong, true}, // a computation after the access
		{3, 20 * time.Millisecond, true},
		{5, 20 * time.Millisecond, true},
		{9, 20 * time.Millisecond, true}, // gone
	} {
		if got := pendingDone(gs, c.goid, c.held); got != c.want {
			t.Errorf("goroutine %d held %v: %v, want %v", c.goid, c.held, got, c.want)
		}
	}
}

// TestReplayLetGoOutsideRoot: the schedule gives its second step to a
// goroutine that uninstrumented code starts during the run (the root g2:
// net/http's connection goroutine under chi's httptest.Server, here a
// plain go statement after the anomaly), which has no part in the
// anomaly. It cannot start before the steps that set it off, after it in
// the schedule: the replay lets it go and drops its step, and the race of
// g1 and g1.1 is reproduced. Before, it deadlocked ("g2 has not started").
func TestReplayLetGoOutsideRoot(t *testing.T) {
	p := writeSchedule(t, "anomaly race/WW 3 4\n"+
		"g1 fork @k.go:1:1 n=1\n"+
		"g2 write x @k.go:10:1 n=1\n"+
		"g1.1 write x @k.go:6:1 n=1\n"+
		"g1 write x @k.go:7:1 n=1\n")
	t.Setenv(EnvStall, "60000")
	t.Setenv(EnvQuiet, "50")
	prog := func() bool {
		x := heap[int]()
		done := make(chan struct{})
		id := Go(kGo)
		go func() {
			Begin(id)
			defer End()
			W(unsafe.Pointer(x), kW1)
			*x = 1
			close(done)
		}()
		W(unsafe.Pointer(x), kW2)
		*x = 2
		<-done
		late := make(chan struct{})
		go func() { // not through Go: a root, started after the anomaly
			W(unsafe.Pointer(x), kAdd)
			*x = 3
			close(late)
		}()
		<-late
		return false
	}
	v, _, _ := replayOnce(t, p, prog)
	if v.Verdict != "reproduced" {
		t.Fatalf("verdict %+v, want reproduced (g2 let go)", v)
	}
	// g2 with a part in the anomaly is not let go: the deadlock stands.
	p = writeSchedule(t, "anomaly race/WW 2 4\n"+
		"g1 fork @k.go:1:1 n=1\n"+
		"g2 write x @k.go:10:1 n=1\n"+
		"g1.1 write x @k.go:6:1 n=1\n"+
		"g1 write x @k.go:7:1 n=1\n")
	v, _, _ = replayOnce(t, p, prog)
	if v.Verdict != "deadlock" || v.Step != 2 || !v.Unstarted {
		t.Fatalf("verdict %+v, want a deadlock at step 2 with g2 unstarted", v)
	}
}
