//go:build linux || darwin

package rt

import (
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

// leaseProg: g1 takes a lease at its start (Now, and a timer of lease),
// forks g1.1, then writes x n times, each after pause of real time (a
// computation, or a loaded machine). g1.1 writes x once, then looks
// whether the lease ran out: by the clock (Since) and by its timer.
// The schedule puts g1.1's write after all of g1's, so it holds g1.1 at
// its gate for n pauses: longer than the lease in real time.
//
// After the verdict (the free run) g1 computes on for 3 more pauses of
// 8*pause, writing x between them, and then looks at the lease too
// (freeSince).
func leaseProg(lease, pause time.Duration, n int, bySince, byTimer, freeSince *bool, reads *[]time.Time) func() bool {
	return func() bool {
		x := heap[int]()
		start := Now()
		timer := NewTimer(lease)
		var wg sync.WaitGroup
		wg.Add(1)
		id := Go(kGo)
		go func() {
			Begin(id)
			defer wg.Done()
			defer End()
			W(unsafe.Pointer(x), kW1)
			*x = 1
			*bySince = Since(start) >= lease
			select {
			case <-timer.C:
				*byTimer = true
			default:
			}
			*reads = append(*reads, Now())
		}()
		for range n {
			time.Sleep(pause) // real time, not the program's clock
			W(unsafe.Pointer(x), kW2)
			*x = 2
		}
		wg.Wait()
		for range 3 {
			time.Sleep(8 * pause)
			W(unsafe.Pointer(x), kW2)
			*x = 3
		}
		*freeSince = Since(start) >= lease
		*reads = append(*reads, Now())
		return false
	}
}

// leaseSchedule: g1's n writes, then g1.1's (the anomaly: g1's last and
// g1.1's).
func leaseSchedule(n int) string {
	var b strings.Builder
	b.WriteString("anomaly race/WW " + strconv.Itoa(n+2) + " " + strconv.Itoa(n+3) + "\n")
	b.WriteString("g1 fork @k.go:1:1 n=1\ng1.1 begin n=1\n")
	for i := 1; i <= n; i++ {
		b.WriteString("g1 write x @k.go:7:1 n=" + strconv.Itoa(i) + "\n")
	}
	b.WriteString("g1.1 write x @k.go:6:1 n=1\n")
	return b.String()
}

// TestReplayHeldClockLease: while the schedule holds g1.1 at its gate
// for about 120 ms of real time, the program's clock does not run: g1.1
// finds its 50 ms lease still good by Since and by its timer, as a run
// in which g1's computation took no time does (goresilience's TestCodel,
// raft's 50 ms leases: the test's own timing failed under the held
// replay and was credited to the interleaving). On main (the clock ran
// with real time plus a skew) both found it expired. The clock reads
// monotone across the hold and its release at the end. The hold lasts
// through the free run after the verdict (g1's pauses there, 72 ms of
// real time, do not run the lease out either), as it must for
// maxwaitfixed (testdata/src).
func TestReplayHeldClockLease(t *testing.T) {
	const n, pause, lease = 40, 3 * time.Millisecond, 50 * time.Millisecond
	p := writeSchedule(t, leaseSchedule(n))
	var bySince, byTimer, freeSince bool
	var reads []time.Time
	before := Now()
	start := time.Now()
	v, _, _ := replayOnce(t, p, leaseProg(lease, pause, n, &bySince, &byTimer, &freeSince, &reads))
	took := time.Since(start)
	if v.Verdict != "reproduced" {
		t.Fatalf("verdict %+v, want reproduced", v)
	}
	if took < time.Duration(n)*pause {
		t.Fatalf("the replay took %v, less than g1's pauses", took)
	}
	if bySince || byTimer {
		t.Errorf("the lease ran out while the schedule held g1.1 (%v of real time): by Since %v, by its timer %v", took, bySince, byTimer)
	}
	if freeSince {
		t.Errorf("the lease ran out in the free run after the verdict (g1's three pauses of %v)", 8*pause)
	}
	reads = append(reads, Now())
	for _, r := range reads {
		if r.Before(before) {
			t.Errorf("the clock went back: %v, then %v", before, r)
		}
		before = r
	}
}

// TestReplayHeldClockPoll: g1.1, whose write the schedule waits for,
// first polls the clock (a loop on Since, no sleep) until 20 ms have
// passed. With the clock held for good it would never see them pass,
// and the replay would end at the stall bound without its step; after
// holdQuiet with no move the clock runs, and the step comes.
func TestReplayHeldClockPoll(t *testing.T) {
	p := writeSchedule(t, "anomaly race/WW 3 4\n"+
		"g1 fork @k.go:1:1 n=1\n"+
		"g1.1 begin n=1\n"+
		"g1.1 write x @k.go:6:1 n=1\n"+
		"g1 write x @k.go:7:1 n=1\n")
	t.Setenv(EnvStall, "3000")
	start := time.Now()
	v, _, _ := replayOnce(t, p, func() bool {
		x := heap[int]()
		t0 := Now()
		var wg sync.WaitGroup
		wg.Add(1)
		id := Go(kGo)
		go func() {
			Begin(id)
			defer wg.Done()
			defer End()
			for Since(t0) < 20*time.Millisecond {
			}
			W(unsafe.Pointer(x), kW1)
			*x = 1
		}()
		W(unsafe.Pointer(x), kW2)
		*x = 2
		wg.Wait()
		return false
	})
	if v.Verdict != "reproduced" {
		t.Fatalf("verdict %+v, want reproduced", v)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the replay took %v: the poller waited for the stall bound", took)
	}
}

// pollSchedule: g1's write comes before g1.1's, so the schedule holds
// g1.1 at its gate while g1 runs up to its write.
const pollSchedule = "anomaly race/WW 3 4\n" +
	"g1 fork @k.go:1:1 n=1\n" +
	"g1.1 begin n=1\n" +
	"g1 write x @k.go:7:1 n=1\n" +
	"g1.1 write x @k.go:6:1 n=1\n"

// TestReplayHeldClockSleepPoll is testdata's restwait in small: g1 polls
// for g1.1's word with 1 ms sleeps against a deadline one second ahead on
// the program's clock (Now), while the schedule holds g1.1 at its gate
// until g1's write, after the poll. Every other goroutine waits at a gate
// or in a wait only another goroutine ends, so each sleep may end at once
// (the stuck rule's move): the poll must run its second out in virtual
// time, a thousand quick moves, not in real time. Under the held clock
// before session 51 each sleep waited for the watcher's look, a dump and
// a thaw, and the poll outlasted the 2 s stall bound: restwait's lost
// signal became "deadlock: nothing moved for 2s" or "no deadlock within
// 2s" (CI's TestSubjects, session 50). Main's running clock takes the
// second in real time.
func TestReplayHeldClockSleepPoll(t *testing.T) {
	p := writeSchedule(t, pollSchedule)
	t.Setenv(EnvStall, "2000") // check's bound for a replay
	const deadline = time.Second
	var polls, early int
	var waited time.Duration
	start := time.Now()
	v, _, _ := replayOnce(t, p, func() bool {
		x := heap[int]()
		var word atomic.Int32
		var wg sync.WaitGroup
		wg.Add(1)
		id := Go(kGo)
		go func() {
			Begin(id)
			defer wg.Done()
			defer End()
			W(unsafe.Pointer(x), kW1)
			*x = 1
			word.Store(1)
		}()
		t0 := Now()
		for dl := Now().Add(deadline); word.Load() == 0 && Now().Before(dl); {
			t1 := Now()
			Sleep(time.Millisecond)
			if Since(t1) < time.Millisecond {
				early++
			}
			polls++
		}
		waited = Since(t0)
		W(unsafe.Pointer(x), kW2)
		*x = 2
		wg.Wait()
		return false
	})
	took := time.Since(start)
	if v.Verdict != "reproduced" {
		t.Fatalf("verdict %+v, want reproduced (after %v of real time, %d polls)", v, took, polls)
	}
	if waited < deadline || early > 0 {
		t.Errorf("the poll ended after %v of the program's clock, %d of its %d sleeps early", waited, early, polls)
	}
	if took >= deadline {
		t.Errorf("the replay took %v of real time: the poll's %d sleeps waited in real time", took, polls)
	}
}

// TestReplayHeldClockSleepPollBusy guards TestReplayHeldClockSleepPoll's
// quick moves: they are the stuck rule's, taken only when nothing but the
// sleeper could move. g1 holds a plain mutex g1.1 waits for and sleeps
// three times (each sleep ends at once: g1.1 waits for g1), then unlocks
// it, outside anything rt sees, and polls for g1.1's word as above. g1.1
// then computes for 400 ms of real time before it gives its word: the
// clock must not move on while it runs, so the poll sees the word long
// before its deadline, as a run in which g1.1's computation took no time
// does. A quick move judged only by what rt saw move would have run the
// poll's second out meanwhile.
func TestReplayHeldClockSleepPollBusy(t *testing.T) {
	p := writeSchedule(t, pollSchedule)
	t.Setenv(EnvStall, "3000")
	const deadline = time.Second
	saw := false
	var waited time.Duration
	v, _, _ := replayOnce(t, p, func() bool {
		x := heap[int]()
		var word atomic.Int32
		var m sync.Mutex
		var wg sync.WaitGroup
		m.Lock()
		wg.Add(1)
		id := Go(kGo)
		go func() {
			Begin(id)
			defer wg.Done()
			defer End()
			// Through reflect: a wait whose innermost frame outside
			// the runtime and sync is rt's (this test's) reads as rt's
			// own lock, busy; the program's code waits in its own.
			reflect.ValueOf(m.Lock).Call(nil)
			for t0 := time.Now(); time.Since(t0) < 400*time.Millisecond; {
			}
			word.Store(1)
			m.Unlock()
			W(unsafe.Pointer(x), kW1)
			*x = 1
		}()
		for range 3 {
			Sleep(time.Millisecond)
		}
		m.Unlock()
		t0 := Now()
		for dl := Now().Add(deadline); word.Load() == 0 && Now().Before(dl); {
			Sleep(time.Millisecond)
		}
		waited = Since(t0)
		saw = word.Load() == 1
		W(unsafe.Pointer(x), kW2)
		*x = 2
		wg.Wait()
		return false
	})
	if v.Verdict != "reproduced" {
		t.Fatalf("verdict %+v, want reproduced", v)
	}
	if !saw || waited >= deadline {
		t.Errorf("the poll's deadline ran out (%v of the program's clock; word seen after: %v) while g1.1 computed: the clock moved while a goroutine ran", waited, saw)
	}
}
