//go:build linux || darwin

package rt

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

// spinLostSignalProg is lostSignalProg with a silent producer B that,
// after its part, computes outside recorded operations until stop is
// set (by the caller, or once the verdict is taken if stopDecided) or
// spin has passed (a goroutine on its way to where the deadlock
// shows: ants' submitters and workers after TestPoolTuneScaleUp's lost
// broadcast). The test's goroutine waits for B, then for the consumer
// for at most wait.
func spinLostSignalProg(spin, wait time.Duration, stopDecided bool, stop *atomic.Bool, wake *func()) func() bool {
	return lostSignalShell(wait, wake, func(m *sync.Mutex, _ *sync.Cond, _ *int) {
		Lock(m, lsLockB)
		Unlock(m, lsUnlockB)
		for t0, look := time.Now(), time.Now(); !stop.Load() && time.Since(t0) < spin; {
			for i := 0; i < 1000; i++ {
				spinSink += i
			}
			if time.Since(look) >= 5*time.Millisecond {
				look = time.Now()
				mu.Lock()
				decided := rp != nil && rp.verdict != ""
				mu.Unlock()
				if decided && stopDecided {
					stop.Store(true)
				}
			}
		}
	})
}

var spinSink int

// starveCPU makes the replay see a process that gets no CPU (cpuFake)
// for the rest of the test.
func starveCPU(t *testing.T) {
	frozen := func() int64 { return 0 }
	cpuFake.Store(&frozen)
	t.Cleanup(func() { cpuFake.Store(nil) })
}

// TestStallStarvedDeadlock: a lost signal's schedule has run and the
// producer B, running free, computes for longer than the stall bound
// before it ends; only then is the consumer left alone in its Wait. On a
// loaded machine that computation is a goroutine that had no CPU for it
// (starveCPU: the process's CPU time stands still): the stall bound must
// not decide "no deadlock within" while B may still run. It waits, and
// the verdict is the deadlock, as on a machine with a CPU to spare.
func TestStallStarvedDeadlock(t *testing.T) {
	p := writeSchedule(t, lostSignalSched)
	t.Setenv(EnvStall, "300")
	t.Setenv(EnvQuiet, "100")
	starveCPU(t)
	var stop atomic.Bool
	var wake func()
	start := time.Now()
	v, _, _ := replayOnce(t, p, spinLostSignalProg(time.Second, 200*time.Millisecond, false, &stop, &wake))
	wake()
	t.Logf("%v: %s: %s", time.Since(start).Round(time.Millisecond), v.Verdict, v.Message)
	if v.Verdict != "deadlock" || len(v.Deadlocked) != 1 || !strings.HasPrefix(v.Deadlocked[0], "g1.1 in cond-wait") {
		t.Fatalf("verdict %+v, want the deadlock of g1.1 in its Wait", v)
	}
}

// TestStallBusyEnds: a goroutine truly busy outside recorded operations
// still ends the replay at the stall bound, "no deadlock within", naming
// it: with the process's CPU time growing, as soon as it had the bound's
// worth (on an idle machine, at the bound, as before); with a process
// that never gets CPU, at stallMax bounds, within the replay's timeout.
func TestStallBusyEnds(t *testing.T) {
	p := writeSchedule(t, lostSignalSched)
	t.Setenv(EnvStall, "300")
	t.Setenv(EnvQuiet, "100")
	for _, starved := range []bool{false, true} {
		if starved {
			starveCPU(t)
		}
		var stop atomic.Bool
		var wake func()
		start := time.Now()
		var took time.Duration
		v, _, _ := replayOnce(t, p, func() bool {
			// B stops computing once the verdict is taken.
			defer func() { took = time.Since(start) }()
			return spinLostSignalProg(time.Minute, 0, true, &stop, &wake)()
		})
		wake()
		t.Logf("starved %v: %v: %s: %s", starved, took.Round(time.Millisecond), v.Verdict, v.Message)
		if v.Verdict != "diverged" || !strings.Contains(v.Message, "no deadlock within 300ms") || !strings.Contains(v.Message, "runnable") {
			t.Errorf("starved %v: verdict %+v, want diverged with no deadlock within 300ms, naming the runnable goroutine", starved, v)
		}
		if starved && took < stallMax*300*time.Millisecond {
			t.Errorf("starved: the verdict came after %v, before the safety bound %v", took, stallMax*300*time.Millisecond)
		}
		if took > 20*time.Second {
			t.Errorf("starved %v: the verdict took %v", starved, took)
		}
	}
}

// lateWriterProg is aloneProg with g1.1 computing for spin (outside
// recorded operations) before its write of y.
func lateWriterProg(spin time.Duration) func() bool {
	return func() bool {
		v := heap[struct{ x, y int }]()
		var wg sync.WaitGroup
		wg.Add(1)
		id := Go(alGo)
		go func() {
			Begin(id)
			defer wg.Done()
			defer End()
			for t0 := time.Now(); time.Since(t0) < spin; {
				for i := 0; i < 1000; i++ {
					spinSink += i
				}
			}
			W(unsafe.Pointer(&v.y), alWy)
			v.y = 1
			W(unsafe.Pointer(&v.x), alWx)
			v.x = 1
		}()
		R(unsafe.Pointer(&v.y), alRy)
		_ = v.y
		R(unsafe.Pointer(&v.x), alRx)
		saw := v.x == 1
		wg.Wait()
		return saw
	}
}

// TestStallStarvedStep: the goroutine of the schedule's next step
// computes for longer than the stall bound before it comes to it, in a
// process that gets no CPU (starveCPU). "nothing moved; step 3 never
// came" would call a feasible schedule a deadlock (check prunes the
// predictions that share its prefix); the replay waits while g1.1 may
// run, and reproduces the race.
func TestStallStarvedStep(t *testing.T) {
	p := writeSchedule(t, "anomaly race/WR 2 3\n"+
		"g1 fork @al.go:1:1 n=1\n"+
		"g1.1 begin n=1\n"+
		"g1.1 write y @al.go:2:1 n=1\n"+
		"g1 read y @al.go:3:1 n=1\n")
	t.Setenv(EnvStall, "300")
	starveCPU(t)
	v, _, _ := replayOnce(t, p, lateWriterProg(time.Second))
	t.Logf("%s: %s", v.Verdict, v.Message)
	if v.Verdict != "reproduced" {
		t.Fatalf("verdict %+v, want reproduced", v)
	}
}
