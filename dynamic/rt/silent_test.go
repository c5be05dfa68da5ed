package rt

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

const (
	ssStore int32 = 4000 + iota // after detour_test.go's 3900…
	ssGo1
	ssGo2
)

var _ = Register(ssStore, []Site{
	{Pos: "silent.go:3:2", Obj: "v"},
	{Pos: "silent.go:1:1", Obj: "go"},
	{Pos: "silent.go:2:1", Obj: "go"},
})

// twoStores starts two goroutines that each store an int64, first and
// second, atomically at the same site, into one location holding 5.
// twoStoresSched is the schedule of twoStores' race: g1.1's store, then
// g1.2's.
const twoStoresSched = "anomaly race/WW 5 6\n" +
	"g1 fork @silent.go:1:1 n=1\n" +
	"g1 fork @silent.go:2:1 n=1\n" +
	"g1.1 begin n=1\n" +
	"g1.2 begin n=1\n" +
	"g1.1 atomic-store v#1 @silent.go:3:2 n=1\n" +
	"g1.2 atomic-store v#1 @silent.go:3:2 n=1\n"

func twoStores(first, second int64) func() bool {
	return func() bool {
		x := new(int64)
		*x = 5
		var wg sync.WaitGroup
		wg.Add(2)
		for _, c := range []struct {
			site int32
			val  int64
		}{{ssGo1, first}, {ssGo2, second}} {
			id := Go(c.site)
			go func() {
				Begin(id)
				defer wg.Done()
				defer End()
				StoreInt64(x, c.val, ssStore)
			}()
		}
		wg.Wait()
		return atomic.LoadInt64(x) == second
	}
}

// TestReplaySilentStore: the verdict lists the anomaly steps whose atomic
// store stored the value already there (Verdict.Silent), and only those:
// a store of 5 into 5 is silent, the second store of the same value too,
// a store of another value not.
func TestReplaySilentStore(t *testing.T) {
	sched := twoStoresSched
	for _, c := range []struct {
		name          string
		first, second int64
		want          []int
	}{
		{"both change", 6, 7, nil},
		{"the first silent", 5, 7, []int{5}},
		{"the second silent", 6, 6, []int{6}},
		{"both silent", 5, 5, []int{5, 6}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "s.sched")
			if err := os.WriteFile(p, []byte(sched), 0o644); err != nil {
				t.Fatal(err)
			}
			v, ok, _ := replayOnce(t, p, twoStores(c.first, c.second))
			if v.Verdict != "reproduced" || !ok {
				t.Fatalf("verdict %+v, final value as scheduled %v", v, ok)
			}
			if !slices.Equal(v.Silent, c.want) {
				t.Fatalf("silent steps %v, want %v", v.Silent, c.want)
			}
		})
	}
}

// TestReplayBubble: a replay whose goroutines come to their gates inside
// a testing/synctest bubble says so in its verdict (Verdict.Bubble), one
// outside any bubble does not.
func TestReplayBubble(t *testing.T) {
	sched := twoStoresSched
	for _, in := range []bool{false, true} {
		t.Run(map[bool]string{false: "outside", true: "inside"}[in], func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "s.sched")
			if err := os.WriteFile(p, []byte(sched), 0o644); err != nil {
				t.Fatal(err)
			}
			prog := twoStores(6, 7)
			if in {
				plain := prog
				prog = func() bool {
					var ok bool
					synctest.Test(t, func(*testing.T) { ok = plain() })
					return ok
				}
			}
			v, ok, _ := replayOnce(t, p, prog)
			if v.Verdict != "reproduced" || !ok {
				t.Fatalf("verdict %+v, final value as scheduled %v", v, ok)
			}
			if v.Bubble != in {
				t.Errorf("Bubble = %v, want %v", v.Bubble, in)
			}
		})
	}
}

// TestReplayBubbleWatcherWakes: inside a testing/synctest bubble, the
// first store's goroutine computes on after its store, reaching no gate,
// so the watcher passes the turn on (pendingDone) and wakes the second
// goroutine from outside the bubble. Parked on a sync.Cond, that wake
// ended the process ("semaphore wake of synctest goroutine from outside
// bubble"); parked on its own mutex (park.go) it is allowed.
func TestReplayBubbleWatcherWakes(t *testing.T) {
	sched := twoStoresSched
	p := filepath.Join(t.TempDir(), "s.sched")
	if err := os.WriteFile(p, []byte(sched), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := func() bool {
		var ok bool
		synctest.Test(t, func(*testing.T) {
			x := new(int64)
			var wg sync.WaitGroup
			wg.Add(2)
			for i, site := range []int32{ssGo1, ssGo2} {
				id := Go(site)
				go func() {
					Begin(id)
					defer wg.Done()
					defer End()
					StoreInt64(x, int64(6+i), ssStore)
					if i == 0 {
						// Compute, on the real clock, past the
						// watcher's grace: no gate, no durable block.
						for t0 := nanotime(); nanotime()-t0 < int64(200*time.Millisecond); {
						}
					}
				}()
			}
			wg.Wait()
			ok = atomic.LoadInt64(x) == 7
		})
		return ok
	}
	v, ok, _ := replayOnce(t, p, prog)
	if v.Verdict != "reproduced" || !ok || !v.Bubble {
		t.Fatalf("verdict %+v, final value as scheduled %v", v, ok)
	}
}
