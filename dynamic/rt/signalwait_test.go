//go:build linux || darwin

package rt

import (
	"context"
	"os"
	"os/exec"
	"os/signal"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// TestSignalWaitSoft: os/signal's loop, parked in signal_recv (the dump
// says "syscall"), is a soft wait that no timer ends; any other goroutine
// in a system call is still busy.
func TestSignalWaitSoft(t *testing.T) {
	g, ok := parseGoroutine("goroutine 19 [syscall]:\nos/signal.signal_recv()\n\t/usr/local/go/src/runtime/sigqueue.go:152 +0x98\n" +
		"os/signal.loop()\n\t/usr/local/go/src/os/signal/signal_unix.go:23 +0x13\ncreated by os/signal.Notify.func1.1 in goroutine 1\n\t/usr/local/go/src/os/signal/signal.go:152 +0x1f")
	if !ok || g.class != gSoft || !g.signal {
		t.Errorf("signal_recv: %+v, want a soft signal wait", g)
	}
	g, ok = parseGoroutine("goroutine 7 [syscall]:\nsyscall.Syscall(0x0, 0x3, 0xc000, 0x200)\n\t/usr/local/go/src/syscall/syscall_linux.go:73 +0x25\n" +
		"example.com/p.read()\n\t/src/p/p.go:12 +0x1d\ncreated by example.com/p.Start in goroutine 1\n\t/src/p/p.go:30 +0x55")
	if !ok || g.class != gBusy || g.signal {
		t.Errorf("a read in a system call: %+v, want busy", g)
	}

	// A real process: the dump of this one after Notify (in a child, so
	// that the loop goroutine does not stay for the other tests).
	if getenv(signalEnv) == "" {
		return
	}
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGWINCH)
	defer signal.Stop(c)
	deadline := time.Now().Add(10 * time.Second)
	for {
		gs, _ := dumpGoroutines(nil)
		for _, g := range gs {
			if g.signal && g.class == gSoft {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no signal wait in the dump: %+v", gs)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// deadlineProg: g1.1 waits, in a receive outside recorded operations,
// for a context's deadline an hour ahead, then writes x; g1 writes x. A
// ticker of a millisecond that nobody receives from ticks into its full
// channel all the while.
func deadlineProg() bool {
	x := heap[int]()
	var wg sync.WaitGroup
	wg.Add(1)
	id := Go(kGo)
	tk := NewTicker(time.Millisecond)
	defer TickerStop(tk)()
	ctx, cancel := WithTimeout(context.Background(), time.Hour)
	defer cancel()
	go func() {
		Begin(id)
		defer wg.Done()
		defer End()
		// Through reflect: a frame of package rt would make the
		// goroutine rt's own, about to record (busy).
		reflect.ValueOf(ctx.Done()).Recv()
		W(unsafe.Pointer(x), kW1)
		*x = 1
	}()
	W(unsafe.Pointer(x), kW2)
	*x = 2
	wg.Wait()
	return false
}

// TestReplayDeadlineBehindTicker: the schedule's next step (g1.1's write)
// comes only after the context's deadline. The ticker's dropped ticks
// wake nothing, so the clock moves past them to the deadline
// (nextWaking) instead of spending its per-step bound on them and then
// waiting for the deadline in real time, or deciding a deadlock that a
// run reaching the deadline does not have.
func TestReplayDeadlineBehindTicker(t *testing.T) {
	p := writeSchedule(t, "anomaly race/WW 3 4\n"+
		"g1 fork @k.go:1:1 n=1\n"+
		"g1.1 begin n=1\n"+
		"g1.1 write x @k.go:6:1 n=1\n"+
		"g1 write x @k.go:7:1 n=1\n")
	t.Setenv(EnvStall, "60000")
	t.Setenv(EnvQuiet, "60000")
	start := time.Now()
	v, _, _ := replayOnce(t, p, deadlineProg)
	took := time.Since(start)
	if v.Verdict != "reproduced" {
		t.Fatalf("verdict %+v, want reproduced", v)
	}
	if took > 20*time.Second {
		t.Errorf("the replay took %v: the deadline was not reached on the virtual clock", took)
	}
}

const signalEnv = "PECANVET_RT_SIGNAL" // set in TestReplaySignalWait's children

// TestReplaySignalWaitChild is TestReplaySignalWait's child process: it
// calls signal.Notify, whose loop goroutine stays for good, and replays
// as the mode says.
func TestReplaySignalWaitChild(t *testing.T) {
	mode := getenv(signalEnv)
	if mode == "" {
		t.Skip("only run by TestReplaySignalWait")
	}
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGWINCH)
	defer signal.Stop(c)
	time.Sleep(10 * time.Millisecond) // the loop goroutine parks
	switch mode {
	case "deadline":
		TestReplayDeadlineBehindTicker(t)
	case "deadlock":
		// TestReplayDeadlockAtOnce's schedule, with the quiet bound
		// short: the signal wait is soft.
		p := writeSchedule(t, "anomaly race/WW 2 4\n"+
			"g1 fork @k.go:1:1 n=1\n"+
			"g1.1 begin n=1\n"+
			"g1.1 lock m @k.go:4:1 n=1\n"+
			"g1 lock m @k.go:2:1 n=1\n"+
			"g1 unlock m @k.go:3:1 n=1\n"+
			"g1.1 unlock m @k.go:5:1 n=1\n")
		t.Setenv(EnvStall, "60000")
		t.Setenv(EnvQuiet, "100")
		start := time.Now()
		v, _, _ := replayOnce(t, p, lockProg)
		took := time.Since(start)
		if v.Verdict != "deadlock" || strings.Contains(v.Message, "nothing moved") {
			t.Fatalf("verdict %+v, want a deadlock by the quiet bound", v)
		}
		if took > 20*time.Second {
			t.Errorf("judged in %v", took)
		}
	case "dump":
		TestSignalWaitSoft(t)
	}
}

// TestReplaySignalWait: in a process that called signal.Notify, whose
// loop goroutine waits in a system call for good, the replayer still sees
// the process quiescent: the clock moves to a context's deadline, and a
// deadlock is decided by the quiet bound, not the stall bound (60 s). Each
// took the stall bound, or the deadline in real time, when that
// goroutine counted as busy (bubbletea's Program.Run calls Notify).
func TestReplaySignalWait(t *testing.T) {
	if getenv(signalEnv) != "" {
		t.Skip("in the child")
	}
	for _, mode := range []string{"dump", "deadline", "deadlock"} {
		t.Run(mode, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestReplaySignalWaitChild$", "-test.count=1", "-test.timeout=2m", "-test.v")
			cmd.Env = append(os.Environ(), signalEnv+"="+mode)
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "--- PASS: TestReplaySignalWaitChild") {
				t.Fatalf("child: %v\n%s", err, out)
			}
		})
	}
}
