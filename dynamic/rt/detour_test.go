package rt

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
)

const (
	dtWStop int32 = 3900 + iota // after lostsignal_test.go's 3800…
	dtWSeen
	dtRSeen
	dtRA
	dtRB
	dtRStop
	dtGo
	dtRStopBranch
	dtRPoll
	dtSleepPoll
)

var _ = Register(dtWStop, []Site{
	{Pos: "detour.go:1:1", Obj: "stop"},
	{Pos: "detour.go:2:1", Obj: "seen"},
	{Pos: "detour.go:5:1", Obj: "seen"},
	{Pos: "detour.go:6:1", Obj: "seen"},
	{Pos: "detour.go:7:1", Obj: "seen"},
	{Pos: "detour.go:9:1", Obj: "stop"},
	{Pos: "detour.go:0:1", Obj: "go"},
	{Pos: "detour.go:4:1", Obj: "stop"},
	{Pos: "detour.go:8:1", Obj: "seen"},
	{Pos: "detour.go:3:1", Obj: "sleep"},
})

// detourProg is scs's memstore test in small: a goroutine sets stop
// (startCleanup's m.stopCleanup) and then seen; the test's goroutine,
// after a sleep that lets it run first, reads seen and takes one branch
// or the other by it (detour.go:6 or :7); a deferred read of stop
// (StopCleanup) follows either way, unless deferOnA is false and the
// branch is the other one. It reports whether the test's goroutine took
// the other branch (seen still 0).
func detourProg(deferOnA bool) func() bool { return detourBranch(deferOnA, false) }

// detourBranch is detourProg whose test goroutine, with onStop, branches
// on a read of stop (detour.go:4) instead of seen.
func detourBranch(deferOnA, onStop bool) func() bool {
	return detourPoll(deferOnA, onStop, 0)
}

// detourPoll is detourBranch whose other branch first polls seen (at
// detour.go:8) with sleeps of 10 ms (detour.go:3) until it is 1, polls
// times at most, or without end when polls is negative.
func detourPoll(deferOnA, onStop bool, polls int) func() bool {
	return func() (other bool) {
		type vars struct{ stop, seen int }
		v := heap[vars]()
		var wg sync.WaitGroup
		wg.Add(1)
		id := Go(dtGo)
		go func() {
			Begin(id)
			defer wg.Done()
			defer End()
			W(unsafe.Pointer(&v.stop), dtWStop)
			v.stop = 1
			W(unsafe.Pointer(&v.seen), dtWSeen)
			v.seen = 1
		}()
		time.Sleep(20 * time.Millisecond)
		func() {
			stopRead := true
			defer func() {
				if stopRead {
					R(unsafe.Pointer(&v.stop), dtRStop)
					_ = v.stop
				}
			}()
			b := v.seen
			if onStop {
				R(unsafe.Pointer(&v.stop), dtRStopBranch)
				b = v.stop
			} else {
				R(unsafe.Pointer(&v.seen), dtRSeen)
			}
			if b == 1 {
				R(unsafe.Pointer(&v.seen), dtRA)
			} else {
				other = true
				stopRead = deferOnA
				R(unsafe.Pointer(&v.seen), dtRB)
				for i := 0; polls < 0 || i < polls; i++ {
					SleepAt(dtSleepPoll)(10 * time.Millisecond)
					R(unsafe.Pointer(&v.seen), dtRPoll)
					if v.seen == 1 {
						break
					}
				}
			}
			_ = v.seen
		}()
		wg.Wait()
		return other
	}
}

// detourSchedule records prog and writes the schedule of its race on
// stop with the read first (detour.go:9 before :1).
func detourSchedule(t *testing.T, prog func() bool) string {
	t.Helper()
	// The recorded run is to take the first branch: prog's 20 ms sleep
	// lets the other goroutine write first, which a loaded machine may not
	// (CI, load 10: "took the other branch" once); try again then.
	var tr *trace.Trace
	for try := 1; tr == nil; try++ {
		done := recordTo(t)
		other := prog()
		got := done()
		if !other {
			tr = got
		} else if try == 5 {
			t.Fatal("the recorded run took the other branch, 5 times")
		}
	}
	pats, _ := pattern.Builtin("race")
	res, err := predict.Run(tr, pats, predict.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range res.Anomalies {
		if strings.Join(a.Sites, " ") == "detour.go:9:1 detour.go:1:1" {
			s, err := trace.NewSchedule(tr, a.Pattern.ID(), a.Schedule.Events(), a.Events)
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(t.TempDir(), "s.sched")
			f, _ := os.Create(p)
			s.WriteTo(f)
			f.Close()
			return p
		}
	}
	t.Fatalf("race detour.go:9 before :1 not predicted; got %d anomalies", len(res.Anomalies))
	return ""
}

// TestReplayDetour: the schedule runs the read of seen ahead of its
// write, so the test's goroutine takes the other branch; its deferred
// read of stop still comes, and the race with the write of stop is
// reproduced there, the detour said (it diverged at the branch before).
func TestReplayDetour(t *testing.T) {
	p := detourSchedule(t, detourProg(true))
	v, other, replayed := replayOnce(t, p, detourProg(true))
	if v.Verdict != "reproduced" || v.Detour == "" || !other {
		t.Fatalf("verdict %+v, other branch %v; want reproduced after a detour", v, other)
	}
	// The race ran back to back: the read of stop, then its write.
	ls := lines(replayed)
	k := slices.Index(ls, "g1 read stop#1")
	if k < 0 || k+1 >= len(ls) || ls[k+1] != "g1.1 write stop#1" {
		t.Fatalf("replay order:\n%s", strings.Join(ls, "\n"))
	}
}

// TestReplayDetourNoReturn: when the other branch does not reach the
// race's access, the divergence stands (not a deadlock: the goroutine
// then waits for the one the schedule holds).
func TestReplayDetourNoReturn(t *testing.T) {
	p := detourSchedule(t, detourProg(false))
	t.Setenv(EnvStall, "200")
	v, other, _ := replayOnce(t, p, detourProg(false))
	if v.Verdict != "diverged" || v.Detour != "" || !other || !strings.Contains(v.Message, "did not come back") {
		t.Fatalf("verdict %+v, other branch %v; want diverged", v, other)
	}
}

// TestReplayDetourSameObject: when the goroutine's path changed at a read
// of the race's own object (its read of stop ran ahead of the write), no
// detour: the race on its other path follows from that one's.
func TestReplayDetourSameObject(t *testing.T) {
	p := detourSchedule(t, detourBranch(true, true))
	v, other, _ := replayOnce(t, p, detourBranch(true, true))
	if v.Verdict != "diverged" || v.Detour != "" || !other {
		t.Fatalf("verdict %+v, other branch %v; want diverged", v, other)
	}
}

// TestReplayDetourPollHeld: on its other branch the test's goroutine polls,
// with sleeps, for seen, which only the goroutine the schedule holds
// writes: it cannot come back. Its sleeps fire at once (detourSleep), so
// it passes maxDetourGates long before the stall bound, here 5 s; fired by
// the watcher, a millisecond or more each, they met that bound first
// (race testdata's TestNoRaceIOFile: four replays of 2 s).
func TestReplayDetourPollHeld(t *testing.T) {
	p := detourSchedule(t, detourPoll(true, false, -1))
	t.Setenv(EnvStall, "5000")
	start := time.Now()
	v, other, _ := replayOnce(t, p, detourPoll(true, false, -1))
	want := fmt.Sprintf("did not come back to the schedule within %d operations", maxDetourGates)
	if v.Verdict != "diverged" || v.Detour != "" || !other || !strings.Contains(v.Message, want) || strings.Count(v.Message, "did not come back") != 1 {
		t.Fatalf("verdict %+v, other branch %v, in %v; want diverged: %s", v, other, time.Since(start), want)
	}
}

// TestReplayDetourPollBack: polling as scs's test does, 200 times, for
// seen, which the held goroutine writes, the test's goroutine gives up and
// comes back to the schedule at its deferred read of stop: the race is
// reproduced after the detour.
func TestReplayDetourPollBack(t *testing.T) {
	p := detourSchedule(t, detourPoll(true, false, 200))
	v, other, _ := replayOnce(t, p, detourPoll(true, false, 200))
	if v.Verdict != "reproduced" || v.Detour == "" || !other {
		t.Fatalf("verdict %+v, other branch %v; want reproduced after a detour", v, other)
	}
}
