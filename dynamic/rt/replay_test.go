package rt

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
)

const (
	fW int32 = 2000 + iota
	fRx
	fRz
	fRy
	fWx
	fWz
	fWy
	fGo1
	fGo2
)

var _ = Register(fW, []Site{
	{Pos: "fig1.go:1:1", Obj: "w"},
	{Pos: "fig1.go:2:1", Obj: "x"},
	{Pos: "fig1.go:2:9", Obj: "z"},
	{Pos: "fig1.go:3:1", Obj: "y"},
	{Pos: "fig1.go:5:1", Obj: "x"},
	{Pos: "fig1.go:6:1", Obj: "z"},
	{Pos: "fig1.go:7:1", Obj: "y"},
	{Pos: "main.go:1:1", Obj: "go"},
	{Pos: "main.go:2:1", Obj: "go"},
})

// fig1 runs PECAN Figure 1 with the runtime calls instrumented code would
// make. T2 sleeps first, so an ordinary run reads y before T2 clears it;
// it reports whether T1 reached the ERROR branch.
func fig1() (errorHit bool) {
	type vars struct{ w, x, y, z int }
	v := heap[vars]()
	v.y = 1
	var wg sync.WaitGroup
	wg.Add(2)
	id1 := Go(fGo1)
	go func() {
		Begin(id1)
		defer wg.Done()
		defer End()
		W(unsafe.Pointer(&v.w), fW)
		v.w = 1
		R(unsafe.Pointer(&v.x), fRx)
		R(unsafe.Pointer(&v.z), fRz)
		_ = v.x + v.z
		R(unsafe.Pointer(&v.y), fRy)
		if v.y == 0 {
			errorHit = true // line 4: ERROR
		}
	}()
	id2 := Go(fGo2)
	go func() {
		Begin(id2)
		defer wg.Done()
		defer End()
		time.Sleep(20 * time.Millisecond)
		W(unsafe.Pointer(&v.x), fWx)
		v.x = 1
		W(unsafe.Pointer(&v.z), fWz)
		v.z = 1
		W(unsafe.Pointer(&v.y), fWy)
		v.y = 0
	}()
	wg.Wait()
	return errorHit
}

// fig1Schedule predicts the races of tr, a recording of Figure 1, and
// writes the schedule of its (3,7) race to a file: it returns the file's
// path and the schedule.
func fig1Schedule(t *testing.T, tr *trace.Trace) (string, *trace.Schedule) {
	t.Helper()
	pats, _ := pattern.Builtin("race")
	res, err := predict.Run(tr, pats, predict.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var sched *trace.Schedule
	for _, a := range res.Anomalies {
		if strings.Join(a.Sites, " ") == "fig1.go:7:1 fig1.go:3:1" {
			if sched, err = trace.NewSchedule(tr, a.Pattern.ID(), a.Schedule.Events(), a.Events); err != nil {
				t.Fatal(err)
			}
		}
	}
	if sched == nil {
		t.Fatalf("race (3,7) not predicted; got %d anomalies", len(res.Anomalies))
	}
	schedPath := filepath.Join(t.TempDir(), "s.sched")
	f, err := os.Create(schedPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sched.WriteTo(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return schedPath, sched
}

// TestReplayFigure1 records Figure 1, predicts its races, and replays the
// schedule of the (3,7) race: it must be reproduced, reach the ERROR, and do
// so identically every time.
func TestReplayFigure1(t *testing.T) {
	done := recordTo(t)
	if fig1() {
		t.Fatal("the recorded run already hit the error")
	}
	tr := done()
	consistent(t, tr)
	schedPath, sched := fig1Schedule(t, tr)

	runs := 20
	if testing.Short() {
		runs = 3
	}
	var first []string
	for i := 0; i < runs; i++ {
		v, hit, replayed := replayOnce(t, schedPath, fig1)
		if v.Verdict != "reproduced" {
			t.Fatalf("run %d: verdict %+v", i, v)
		}
		if !hit {
			t.Fatalf("run %d: reproduced but the ERROR branch was not reached", i)
		}
		order := lines(replayed)
		if len(order) > len(sched.Steps) {
			order = order[:len(sched.Steps)]
		}
		if first == nil {
			first = order
		} else if strings.Join(first, "\n") != strings.Join(order, "\n") {
			t.Fatalf("run %d: replay order differs:\n%s\nvs\n%s", i, strings.Join(order, "\n"), strings.Join(first, "\n"))
		}
	}
}

// TestReplayDiverged replays a schedule that expects an event the program
// does not do at that point.
func TestReplayDiverged(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.sched")
	os.WriteFile(p, []byte("anomaly race/RW 2 1\ng1 fork @main.go:1:1 n=1\ng1 read y @fig1.go:3:1 n=1\n"), 0o644)
	v, _, _ := replayOnce(t, p, fig1)
	if v.Verdict != "diverged" || !strings.Contains(v.Expected, "read") {
		t.Fatalf("verdict %+v, want diverged", v)
	}
}

// TestReplayDeadlock replays a schedule whose step never comes.
func TestReplayDeadlock(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.sched")
	// g1.2's write of x before g1 forks it: nobody can move.
	os.WriteFile(p, []byte("anomaly race/WR 1 2\ng1.2 write x @fig1.go:5:1 n=1\ng1 fork @main.go:1:1 n=1\n"), 0o644)
	t.Setenv(EnvStall, "200")
	v, _, _ := replayOnce(t, p, fig1)
	if v.Verdict != "deadlock" || len(v.Waiting) == 0 {
		t.Fatalf("verdict %+v, want deadlock with waiters", v)
	}
}

// replayOnce runs prog under the schedule in path, in process, and returns
// the verdict, prog's result and the trace of the replay.
func replayOnce(t *testing.T, path string, prog func() bool) (Verdict, bool, *trace.Trace) {
	t.Helper()
	dir := t.TempDir()
	verdict := filepath.Join(dir, "verdict.json")
	t.Setenv(EnvSchedule, path)
	t.Setenv(EnvVerdict, verdict)
	done := recordTo(t)
	mu.Lock()
	rp = nil
	mu.Unlock()
	if err := startReplay(); err != nil {
		t.Fatal(err)
	}
	hit := prog()
	tr := done()
	mu.Lock()
	rp = nil
	runClock() // a schedule that never let go (teststart.go does the same)
	mu.Unlock()
	var v Verdict
	b, err := os.ReadFile(verdict)
	if err != nil {
		t.Fatalf("no verdict: %v", err)
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v, hit, tr
}

// fig1Tail is fig1 followed by tail plain writes of the test's goroutine:
// the part of the run after the schedule, which the replay runs free.
func fig1Tail(tail int) func() bool {
	return func() bool {
		hit := fig1()
		v := heap[int]()
		for i := 0; i < tail; i++ {
			W(unsafe.Pointer(v), fW)
			*v = i
		}
		return hit
	}
}

// TestReplayFreeRunNotRecorded: once a replay's verdict is decided and
// every goroutine runs free, only the first freeKeep plain accesses are
// recorded (freerun.go); the verdict and its consequence are the same.
func TestReplayFreeRunNotRecorded(t *testing.T) {
	const tail = 200
	done := recordTo(t)
	fig1Tail(tail)()
	tr := done()
	schedPath, _ := fig1Schedule(t, tr)
	tailWrites := func(tr *trace.Trace) int {
		n := 0
		for _, e := range tr.Events {
			if e.Op == trace.Write && tr.Site(e) == "fig1.go:1:1" {
				n++
			}
		}
		return n - 1 // T1's write of w
	}
	if n := tailWrites(tr); n != tail {
		t.Fatalf("the recording has %d tail writes, want %d", n, tail)
	}
	defer func(k int64) { freeKeep = k }(freeKeep)
	for _, keep := range []int64{1 << 16, 10} {
		freeKeep = keep
		v, hit, replayed := replayOnce(t, schedPath, fig1Tail(tail))
		if v.Verdict != "reproduced" || !hit {
			t.Fatalf("freeKeep %d: verdict %+v, error branch %v; want reproduced, reached", keep, v, hit)
		}
		n := tailWrites(replayed)
		if want := int(min(keep, tail)); n > want || keep >= tail && n != tail {
			t.Fatalf("freeKeep %d: the replay recorded %d of the %d tail writes, want %d at most", keep, n, tail, want)
		}
		if keep < tail && n < 1 {
			t.Fatalf("freeKeep %d: no tail write recorded", keep)
		}
	}
	// The next recording records everything again.
	done = recordTo(t)
	fig1Tail(tail)()
	if n := tailWrites(done()); n != tail {
		t.Fatalf("a recording after the replays has %d tail writes, want %d", n, tail)
	}
}

// fig1AtomicTail is fig1 followed by tail atomic adds, each inside a
// unit (RegionBegin, RegionEnd) and a critical section of a mutex, of the
// test's goroutine: the part of the run after the schedule, which the
// replay runs free.
func fig1AtomicTail(tail int) func() bool {
	return func() bool {
		hit := fig1()
		n := heap[int64]()
		m := heap[sync.Mutex]()
		for i := 0; i < tail; i++ {
			RegionBegin(sRegion)
			Lock(m, sLock)
			AddInt64(n, 1, sAtomic)
			Unlock(m, sUnlock)
			RegionEnd(sRegion)
		}
		return hit && *n == int64(tail) && m.TryLock()
	}
}

// TestReplayFreeRunAtomicsNotRecorded: once a replay runs free, atomic
// operations, unit markers and lock operations past freeKeep of their own
// are performed but not recorded (freerun.go), and the replay's trace says it is cut
// (Truncated), so that check's judges that need the whole run do not
// take it for one; within freeKeep the trace is whole, as on a recording.
func TestReplayFreeRunAtomicsNotRecorded(t *testing.T) {
	const tail = 200
	done := recordTo(t)
	fig1AtomicTail(tail)()
	tr := done()
	count := func(tr *trace.Trace) (adds, regions int) {
		for _, e := range tr.Events {
			switch e.Op {
			case trace.AtomicRMW:
				adds++
			case trace.RegionBegin, trace.RegionEnd, trace.Lock, trace.Unlock:
				regions++
			}
		}
		return
	}
	if adds, regions := count(tr); adds != tail || regions != 4*tail || tr.Truncated != "" {
		t.Fatalf("the recording has %d adds, %d unit markers and locks, truncated %q; want %d, %d, none", adds, regions, tr.Truncated, tail, 4*tail)
	}
	schedPath, _ := fig1Schedule(t, tr)
	defer func(k int64) { freeKeep = k }(freeKeep)
	for _, keep := range []int64{1 << 16, 10} {
		freeKeep = keep
		v, ok, replayed := replayOnce(t, schedPath, fig1AtomicTail(tail))
		if v.Verdict != "reproduced" || !ok {
			t.Fatalf("freeKeep %d: verdict %+v, error branch and every add done %v; want reproduced, true", keep, v, ok)
		}
		adds, regions := count(replayed)
		if keep >= 5*tail {
			if adds != tail || regions != 4*tail || replayed.Truncated != "" {
				t.Fatalf("freeKeep %d: the replay recorded %d adds, %d unit markers and locks, truncated %q; want %d, %d, none", keep, adds, regions, replayed.Truncated, tail, 4*tail)
			}
			continue
		}
		if adds+regions > int(keep) || adds < 1 {
			t.Fatalf("freeKeep %d: the replay recorded %d adds and %d unit markers and locks of the free run, want at most %d, some", keep, adds, regions, keep)
		}
		if !strings.Contains(replayed.Truncated, "free run") {
			t.Fatalf("freeKeep %d: truncated %q, want the free run's cut", keep, replayed.Truncated)
		}
	}
	// EnvFreeWhole (the recorded order's control): all of them.
	os.Setenv(EnvFreeWhole, "1")
	v, ok, replayed := replayOnce(t, schedPath, fig1AtomicTail(tail))
	os.Unsetenv(EnvFreeWhole)
	freeWhole = false
	if adds, regions := count(replayed); v.Verdict != "reproduced" || !ok || adds != tail || regions != 4*tail || replayed.Truncated != "" {
		t.Fatalf("freeKeep %d, whole: verdict %s, %v, %d adds, %d unit markers and locks, truncated %q; want reproduced, true, %d, %d, none", freeKeep, v.Verdict, ok, adds, regions, replayed.Truncated, tail, 4*tail)
	}
	// The next recording records everything again, and is whole.
	done = recordTo(t)
	fig1AtomicTail(tail)()
	again := done()
	if adds, regions := count(again); adds != tail || regions != 4*tail || again.Truncated != "" {
		t.Fatalf("a recording after the replays has %d adds, %d unit markers and locks, truncated %q; want %d, %d, none", adds, regions, again.Truncated, tail, 4*tail)
	}
}

// unscheduledProg forks A and B; the schedules below name steps of A
// only. A writes x, then waits up to 300 ms (real time, outside any
// gate) for B to have run, then reads y; it reports whether B had run.
func unscheduledProg() bool {
	type vars struct{ x, y, z int }
	v := heap[vars]()
	var ran sync.WaitGroup
	ran.Add(1)
	seen := make(chan bool, 1)
	var wg sync.WaitGroup
	wg.Add(2)
	id1 := Go(fGo1)
	go func() {
		Begin(id1)
		defer wg.Done()
		defer End()
		W(unsafe.Pointer(&v.x), fWx)
		v.x = 1
		b := make(chan struct{})
		go func() { ran.Wait(); close(b) }()
		select {
		case <-b:
			seen <- true
		case <-time.After(300 * time.Millisecond):
			seen <- false
		}
		R(unsafe.Pointer(&v.y), fRy)
		_ = v.y
	}()
	id2 := Go(fGo2)
	go func() {
		Begin(id2)
		defer wg.Done()
		defer End()
		W(unsafe.Pointer(&v.z), fWz)
		v.z = 1
		ran.Done()
	}()
	wg.Wait()
	return <-seen
}

// TestReplayFreeUnscheduled: a goroutine of which the schedule names no
// step waits for the schedule's end, unless EnvFreeUnscheduled names a
// step: from that step on it runs free (check/control.go's unheld
// control), and the scheduled steps keep their order.
func TestReplayFreeUnscheduled(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.sched")
	os.WriteFile(p, []byte("anomaly race/WR 4 5\ng1 fork @main.go:1:1 n=1\ng1 fork @main.go:2:1 n=1\ng1.1 begin n=1\ng1.1 write x @fig1.go:5:1 n=1\ng1.1 read y @fig1.go:3:1 n=1\n"), 0o644)
	for _, tc := range []struct {
		from string
		want bool
	}{{"", false}, {"4", true}} {
		t.Setenv(EnvFreeUnscheduled, tc.from)
		v, ran, _ := replayOnce(t, p, unscheduledProg)
		if v.Verdict != "reproduced" || ran != tc.want {
			t.Errorf("free from %q: verdict %+v, B ran before A's last step %v, want %v", tc.from, v, ran, tc.want)
		}
	}
}

// TestReplayFreeRunBound: with EnvFreeBound, a replay whose free run
// after a reproduced verdict goes past the bound is ended (endFreeRun),
// its verdict saying why (FreeStop) and its trace cut for that reason;
// within the bound, or with none, the free run goes on to the program's
// end as before. (marusama/semaphore's 100,000-round test ran every
// replay to the 30 s bound.)
func TestReplayFreeRunBound(t *testing.T) {
	// busy runs fig1, then atomic adds until endFreeRun is called or
	// limit adds are done.
	var stopped atomic.Bool
	busy := func(limit int) func() bool {
		return func() bool {
			hit := fig1()
			n := heap[int64]()
			for i := 0; i < limit && !stopped.Load(); i++ {
				AddInt64(n, 1, sAtomic)
				if i%64 == 0 {
					time.Sleep(10 * time.Microsecond) // let the watcher look
				}
			}
			return hit
		}
	}
	done := recordTo(t)
	busy(10)()
	tr := done()
	schedPath, _ := fig1Schedule(t, tr)
	var why string
	defer func(e func(string)) { endFreeRun = e }(endFreeRun)
	endFreeRun = func(w string) {
		why = w
		stopped.Store(true)
		finish(freeStopReason)
	}
	for _, c := range []struct {
		bound, limit int
		stop         bool
	}{
		{0, 5000, false},      // no bound: to the end
		{1000, 200, false},    // within the bound
		{1000, 1 << 30, true}, // past it: ended
	} {
		t.Setenv(EnvFreeBound, strconv.Itoa(c.bound))
		why = ""
		stopped.Store(false)
		v, ok, replayed := replayOnce(t, schedPath, busy(c.limit))
		if v.Verdict != "reproduced" || !ok {
			t.Fatalf("bound %d: verdict %+v, race hit %v; want reproduced, true", c.bound, v, ok)
		}
		if !c.stop {
			if v.FreeStop != "" || why != "" || replayed.Truncated != "" {
				t.Errorf("bound %d, %d adds: stopped %q (%q), trace cut %q; want none", c.bound, c.limit, v.FreeStop, why, replayed.Truncated)
			}
			continue
		}
		if v.FreeStop == "" || v.FreeStop != why || !strings.Contains(v.FreeStop, "free run stopped after") {
			t.Errorf("bound %d: verdict's FreeStop %q, endFreeRun's %q; want the same, saying the free run stopped", c.bound, v.FreeStop, why)
		}
		if replayed.Truncated != freeStopReason {
			t.Errorf("bound %d: trace cut %q, want %q", c.bound, replayed.Truncated, freeStopReason)
		}
		adds := 0
		for _, e := range replayed.Events {
			if e.Op == trace.AtomicRMW {
				adds++
			}
		}
		if adds < c.bound/2 {
			t.Errorf("bound %d: the replay recorded %d adds of the free run, want the bound's before it stopped", c.bound, adds)
		}
	}
	freeBound = 0
}
