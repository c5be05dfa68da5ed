package rt

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// goLate starts, as instrumented code does, a goroutine that sleeps d and
// then writes *n.
func goLate(n *int, d time.Duration) {
	id := Go(sGo)
	go func() {
		Begin(id)
		defer End()
		time.Sleep(d)
		W(unsafe.Pointer(n), sWrite)
		*n = 1
	}()
}

func hasWrite(tr *trace.Trace, g string) bool {
	for _, l := range ofG(tr, g) {
		if strings.HasPrefix(l, "write") {
			return true
		}
	}
	return false
}

// TestDrainWaitsForStartedGoroutines: a goroutine the test did not wait for
// has its accesses in the trace when Drain ran at the end of the test, and
// not without it.
func TestDrainWaitsForStartedGoroutines(t *testing.T) {
	n := heap[int]()
	done := recordTo(t)
	R(unsafe.Pointer(n), sRead)
	goLate(n, 30*time.Millisecond)
	Drain()
	tr := done()
	if !hasWrite(tr, "g1.1") {
		t.Errorf("with Drain, the late goroutine's write is missing:\n%s", text(tr, 50))
	}

	// The late goroutine writes once the recording has finished: with a
	// 200 ms sleep, a finish that took longer at load 40 recorded it.
	m := heap[int]()
	release, wrote := make(chan bool), make(chan bool)
	done = recordTo(t)
	R(unsafe.Pointer(m), sRead)
	id := Go(sGo)
	go func() {
		Begin(id)
		defer close(wrote)
		defer End()
		<-release
		W(unsafe.Pointer(m), sWrite)
		*m = 1
	}()
	tr = done()
	close(release)
	<-wrote // it ends before the next test records
	if hasWrite(tr, "g1.1") {
		t.Errorf("without Drain, the late goroutine's write was recorded: the test shows nothing")
	}
}

// TestDrainBlocked: a started goroutine blocked for good does not hold Drain
// for its whole bound, only for the quiet time.
func TestDrainBlocked(t *testing.T) {
	block := make(chan int)
	defer close(block)
	done := recordTo(t)
	id := Go(sGo)
	go func() {
		Begin(id)
		defer End()
		<-block
	}()
	start := time.Now()
	Drain()
	el := time.Since(start)
	done()
	if el >= drainBound {
		t.Errorf("Drain took %v with the only goroutine blocked on a channel; want well under %v", el, drainBound)
	}
}

// TestDrainBound: a goroutine that never blocks does not hold Drain longer
// than its bound.
func TestDrainBound(t *testing.T) {
	old := drainBound
	drainBound = 50 * time.Millisecond
	defer func() { drainBound = old }()
	stop := make(chan bool)
	defer close(stop)
	done := recordTo(t)
	id := Go(sGo)
	go func() {
		Begin(id)
		defer End()
		for {
			select {
			case <-stop:
				return
			default:
				time.Sleep(time.Millisecond)
			}
		}
	}()
	start := time.Now()
	Drain()
	el := time.Since(start)
	done()
	if el < drainBound || el > drainBound+time.Second {
		t.Errorf("Drain took %v with a busy goroutine; want about its bound %v", el, drainBound)
	}
}

// TestDrainTicker: a goroutine the test started that a ticker wakes more
// often than drainQuiet (timedmap's cleaner: 10 ms) holds Drain for
// drainTicks bursts and drainPeriodic, not for the whole bound, and those
// bursts are in the trace, with what the goroutine does only once its
// clock says so (an entry expiring 100 ms after the test's end:
// timedmap's TestSize).
func TestDrainTicker(t *testing.T) {
	// Without the periodic rule Drain takes its whole bound; with it,
	// drainPeriodic and a few looks, which a loaded machine stretches
	// (500-730 ms at load 40 with the default 1 s bound: the looks came
	// up to 170 ms apart). A bound of 5 s keeps the two apart.
	old := drainBound
	drainBound = 5 * time.Second
	defer func() { drainBound = old }()
	for _, period := range []time.Duration{2 * time.Millisecond, 5 * time.Millisecond} {
		stop := make(chan bool)
		n, expired := heap[int](), heap[int]()
		done := recordTo(t)
		id := Go(sGo)
		tk := time.NewTicker(period)
		expiry := time.Now().Add(100 * time.Millisecond)
		go func() {
			Begin(id)
			defer End()
			for {
				select {
				case now := <-tk.C:
					R(unsafe.Pointer(n), sRead)
					*n++
					if now.After(expiry) && *expired == 0 {
						W(unsafe.Pointer(expired), sWrite)
						*expired = 1
					}
				case <-stop:
					return
				}
			}
		}()
		start := time.Now()
		Drain()
		el := time.Since(start)
		tr := done()
		close(stop)
		tk.Stop()
		if el >= drainBound/2 {
			t.Errorf("ticker %v: Drain took %v with the only goroutine woken by the ticker; want well under its bound %v", period, el, drainBound)
		}
		reads := 0
		for _, l := range ofG(tr, "g1.1") {
			if strings.HasPrefix(l, "read") {
				reads++
			}
		}
		if reads < drainTicks {
			t.Errorf("ticker %v: %d ticks of the goroutine in the trace; want at least %d:\n%s", period, reads, drainTicks, text(tr, 50))
		}
		if !hasWrite(tr, "g1.1") {
			t.Errorf("ticker %v: the write of the tick after the expiry (100 ms) is not in the trace (Drain took %v)", period, el)
		}
	}
	time.Sleep(20 * time.Millisecond) // let them end before the next test records
}

// TestDrainLateLook: a look that comes long after the last (the process
// not run on a loaded machine) does not count the whole gap as quiet:
// the goroutine a ticker woke in it has not run yet. Drain's clock jumps
// 50 ms at its fourth look, the goroutine blocked all along; its tick
// comes at the fifth. Before, Drain returned at the fourth, and the
// goroutine's write was not in the trace (TestDrainTicker under load:
// none of the ticks of a 2 ms ticker).
func TestDrainLateLook(t *testing.T) {
	n := heap[int]()
	tick, stop, goid := make(chan bool), make(chan bool), make(chan int64, 1)
	defer close(stop)
	done := recordTo(t)
	id := Go(sGo)
	go func() {
		Begin(id)
		defer End()
		goid <- curGoid()
		<-tick
		W(unsafe.Pointer(n), sWrite)
		*n = 1
		<-stop
	}()
	// Drain begins with the goroutine blocked on tick.
	ids := map[int64]bool{<-goid: true}
	for end := time.Now().Add(10 * time.Second); anyBusy(ids) && time.Now().Before(end); {
		time.Sleep(100 * time.Microsecond)
	}
	base := time.Now()
	var calls int
	var jumped time.Time
	drainNow = func() time.Time {
		calls++
		switch {
		case calls < 4:
			return base // looks seeing no time pass
		case calls == 4:
			jumped = time.Now()
			return base.Add(50 * time.Millisecond)
		}
		if calls == 5 {
			close(tick)
		}
		return base.Add(50*time.Millisecond + time.Since(jumped))
	}
	defer func() { drainNow = time.Now }()
	Drain()
	tr := done()
	if calls < 5 {
		close(tick)
		t.Errorf("Drain returned at its look %d, after a 50 ms gap between two looks", calls-1)
	}
	if !hasWrite(tr, "g1.1") {
		t.Errorf("the write after the tick is missing:\n%s", text(tr, 50))
	}
}

func TestParseGoroutineHeader(t *testing.T) {
	for _, c := range []struct {
		line  string
		id    int64
		state string
		ok    bool
	}{
		{"goroutine 12 [chan receive, 2 minutes]:", 12, "chan receive", true},
		{"goroutine 1 [running]:", 1, "running", true},
		{"goroutine 7 [sync.WaitGroup.Wait]:", 7, "sync.WaitGroup.Wait", true},
		{"\tmain.go:12 +0x1d", 0, "", false},
		{"goroutine x [running]:", 0, "", false},
	} {
		id, st, ok := parseGoroutineHeader([]byte(c.line))
		if id != c.id || st != c.state || ok != c.ok {
			t.Errorf("%q: got %d %q %v, want %d %q %v", c.line, id, st, ok, c.id, c.state, c.ok)
		}
	}
	for s, want := range map[string]bool{"chan receive": true, "select": true, "sync.Mutex.Lock": true, "semacquire": true,
		"IO wait": true, "running": false, "runnable": false, "sleep": false, "syscall": false} {
		if blockedState(s) != want {
			t.Errorf("blockedState(%q) = %v, want %v", s, !want, want)
		}
	}
}

// TestPerturbDeterministic: the perturbation's decisions depend on the
// seed, the goroutine's name and its operation count only, and seeds give
// goroutines different priorities.
func TestPerturbDeterministic(t *testing.T) {
	names := []string{"g1", "g1.1", "g1.2", "g1.3", "g1.1.1", "g2"}
	differ := false
	for seed := uint64(1); seed <= 4; seed++ {
		for _, n := range names {
			if priority(seed, n) != priority(seed, n) || priority(seed, n) > 3 {
				t.Fatalf("priority(%d, %s) unstable or out of range", seed, n)
			}
			if priority(seed, n) != priority(seed+1, n) {
				differ = true
			}
		}
	}
	if !differ {
		t.Errorf("every seed gives every goroutine the same priority")
	}
	// The same seed, name and count give the same hash; another count
	// another.
	h := func(seed uint64, n string, k uint32) uint64 {
		return mix(hashName(seed, n) ^ uint64(k)*0x9e3779b97f4a7c15)
	}
	if h(1, "g1.1", 3) != h(1, "g1.1", 3) || h(1, "g1.1", 3) == h(1, "g1.1", 4) || h(1, "g1.1", 3) == h(2, "g1.1", 3) {
		t.Errorf("perturbation hash not a function of (seed, name, count)")
	}
}

// TestDrainFreed: a goroutine still runnable after the replay's verdict
// (closelog's Log, whose send on the closed channel panics right after the
// step that decided it) runs before the test returns, so that what it
// does is this replay's consequence. The schedule ends at the goroutine's
// begin (which passes the turn at once, as a send does); with one P the
// goroutine then yields, and without drainFreed the test goroutine
// returned first.
func TestDrainFreed(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	p := filepath.Join(t.TempDir(), "s.sched")
	os.WriteFile(p, []byte("anomaly race/RW 2 3\ng1 fork @main.go:1:1 n=1\ng1 read x @fig1.go:2:1 n=1\ng1.1 begin n=1\n"), 0o644)
	v, after, _ := replayOnce(t, p, func() bool {
		x := heap[int]()
		var after atomic.Bool
		id := Go(fGo1)
		go func() {
			Begin(id)
			defer End()
			W(unsafe.Pointer(x), fWx)
			*x = 1
			for start := time.Now(); time.Since(start) < 30*time.Millisecond; {
				runtime.Gosched() // runnable, not yet done
			}
			after.Store(true)
		}()
		R(unsafe.Pointer(x), fRx)
		Drain()
		return after.Load()
	})
	if v.Verdict != "reproduced" {
		t.Fatalf("verdict %+v, want reproduced", v)
	}
	if !after {
		t.Errorf("the test returned while the goroutine the verdict let go was still runnable")
	}
}

// TestDrainFreedTimer: after a replay's verdict, the test's end does not
// wait for the callback of a time.AfterFunc timer not yet due: it sleeps
// until then, as any sleeper drainFreed leaves alone (cache2go's 1 s
// expiry timer held each reproduced replay of a driver for the whole
// bound). Fails without the due check (Drain waits 600 ms for it).
func TestDrainFreedTimer(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.sched")
	os.WriteFile(p, []byte("anomaly race/RW 2 3\ng1 fork @main.go:1:1 n=1\ng1 read x @fig1.go:2:1 n=1\ng1.1 begin n=1\n"), 0o644)
	var el time.Duration
	v, _, _ := replayOnce(t, p, func() bool {
		x := heap[int]()
		done := make(chan struct{})
		id := Go(fGo1)
		go func() {
			Begin(id)
			defer End()
			W(unsafe.Pointer(x), fWx)
			*x = 1
			close(done)
		}()
		R(unsafe.Pointer(x), fRx)
		<-done
		tm := AfterFuncAt(sGo)(600*time.Millisecond, func() {})
		start := time.Now()
		Drain()
		el = time.Since(start)
		TimerStop(tm)()
		return true
	})
	if v.Verdict != "reproduced" {
		t.Fatalf("verdict %+v, want reproduced", v)
	}
	if el >= 300*time.Millisecond {
		t.Errorf("Drain took %v after the verdict with only a timer due in 600 ms pending; want well under", el)
	}
}

// TestDrainClock: the schedule's next step is a time.AfterFunc callback's
// while the test goroutine waits in Drain for it. Nothing else can move,
// so the virtual clock fires the timer at once, as for a test goroutine at
// a gate; it stood still while Drain slept, and every such replay waited
// the timer out in real time (cache2go's TestDataLoader, 500 ms each).
func TestDrainClock(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.sched")
	os.WriteFile(p, []byte("anomaly av/RWR 2 3 4\ng1 fork @main.go:1:1 n=1\ng1 read x @fig1.go:2:1 n=1\ng1.1 begin n=1\ng1.1 write x @fig1.go:5:1 n=1\n"), 0o644)
	var el time.Duration
	v, ran, _ := replayOnce(t, p, func() bool {
		x := heap[int]()
		var ran atomic.Bool
		AfterFuncAt(fGo1)(time.Hour, func() {
			W(unsafe.Pointer(x), fWx)
			*x = 1
			ran.Store(true)
		})
		R(unsafe.Pointer(x), fRx)
		start := time.Now()
		Drain()
		el = time.Since(start)
		// After the verdict the test goroutine runs alone until it ends,
		// which it does not here: end the hold, and let the callback's
		// goroutine end before the next test.
		mu.Lock()
		for rp != nil && rp.alone != nil {
			rp.endHold()
		}
		mu.Unlock()
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			mu.Lock()
			pending, live := rec.liveKids(curGoid(), 0)
			mu.Unlock()
			if pending == 0 && len(live) == 0 {
				break
			}
		}
		return ran.Load()
	})
	if v.Verdict != "reproduced" {
		t.Fatalf("verdict %+v, want reproduced", v)
	}
	if !ran {
		t.Error("the timer's callback did not run before the test returned")
	}
	if el >= drainBound/2 {
		t.Errorf("Drain took %v waiting for the step of a callback due in an hour; want well under %v", el, drainBound)
	}
}
