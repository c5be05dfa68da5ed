package rt

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"
	"unsafe"
)

// sleepers runs two goroutines, g1.1 sleeping 4 ms and g1.2 8 ms, each
// writing c.n after its sleep (and after between, for g1.1: what a late
// thread does before its next operation), and returns the goroutine
// whose write the trace has first and how long g1.2 took.
func sleepersRun(t *testing.T, between func()) (first string, took time.Duration) {
	t.Helper()
	read := recordTo(t)
	c := heap[struct{ n int }]()
	var wg sync.WaitGroup
	wg.Add(2)
	a := Go(sGo)
	go func() {
		Begin(a)
		defer End()
		defer wg.Done()
		Sleep(4 * time.Millisecond)
		between()
		W(unsafe.Pointer(&c.n), sWrite)
	}()
	b := Go(sGo)
	start := time.Now()
	go func() {
		Begin(b)
		defer End()
		defer wg.Done()
		Sleep(8 * time.Millisecond)
		W(unsafe.Pointer(&c.n), sWrite)
		took = time.Since(start)
	}()
	wg.Wait()
	tr := read()
	for _, l := range lines(tr) {
		switch l {
		case "g1.1 write Counter.n#1", "g1.2 write Counter.n#1":
			return l[:4], took
		}
	}
	t.Fatalf("no write recorded:\n%s", text(tr, 100))
	return "", 0
}

// TestWakeOrderLateTimer: the 4 ms sleeper's thread runs 30 ms late (its
// timer fired; it has not run), and the 8 ms sleeper waits for it: the
// trace has the writes in the order of the sleeps' deadlines, not the
// loaded machine's.
func TestWakeOrderLateTimer(t *testing.T) {
	sleepWoke = func(name string) {
		if name == "g1.1" {
			time.Sleep(30 * time.Millisecond)
		}
	}
	defer func() { sleepWoke = nil }()
	if first, _ := sleepersRun(t, func() {}); first != "g1.1" {
		t.Errorf("%s wrote first; want g1.1, whose sleep ended first", first)
	}
}

// TestWakeOrderLateRun: the 4 ms sleeper woke in time but runs 30 ms
// before its next operation (a wait rt does not see): the 8 ms sleeper
// waits for its write too.
func TestWakeOrderLateRun(t *testing.T) {
	if first, _ := sleepersRun(t, func() { time.Sleep(30 * time.Millisecond) }); first != "g1.1" {
		t.Errorf("%s wrote first; want g1.1, whose sleep ended first", first)
	}
}

// TestWakeOrderBound: a sleeper due first that wakes 300 ms late, or
// wakes and then waits 300 ms where rt does not see, holds the later one
// for wakeWait, not 300 ms.
func TestWakeOrderBound(t *testing.T) {
	const late = 300 * time.Millisecond
	t.Run("timer", func(t *testing.T) {
		sleepWoke = func(name string) {
			if name == "g1.1" {
				time.Sleep(late)
			}
		}
		defer func() { sleepWoke = nil }()
		if first, took := sleepersRun(t, func() {}); first != "g1.2" || took > late*2/3 {
			t.Errorf("%s wrote first, g1.2 after %v; want g1.2, after about %v", first, took, 8*time.Millisecond+wakeWait)
		}
	})
	t.Run("run", func(t *testing.T) {
		if first, took := sleepersRun(t, func() { time.Sleep(late) }); first != "g1.2" || took > late*2/3 {
			t.Errorf("%s wrote first, g1.2 after %v; want g1.2, after about %v", first, took, 8*time.Millisecond+wakeWait)
		}
	})
}

// TestWakeOrderBubble: sleepers inside a synctest bubble are left to its
// fake clock, which stands still while a goroutine yields: a sleeper
// waiting for one due first that then blocks where rt does not see (here
// a plain receive, until the later sleeper is done) would never see a
// clock bound come.
func TestWakeOrderBubble(t *testing.T) {
	read := recordTo(t)
	done := make(chan bool)
	go func() {
		defer close(done)
		synctest.Test(t, func(t *testing.T) {
			c := heap[struct{ n int }]()
			release := make(chan bool)
			var wg sync.WaitGroup
			wg.Add(2)
			a := Go(sGo)
			go func() {
				Begin(a)
				defer End()
				defer wg.Done()
				Sleep(4 * time.Millisecond)
				<-release
				W(unsafe.Pointer(&c.n), sWrite)
			}()
			b := Go(sGo)
			go func() {
				Begin(b)
				defer End()
				defer wg.Done()
				Sleep(8 * time.Millisecond)
				W(unsafe.Pointer(&c.n), sWrite)
				close(release)
			}()
			wg.Wait()
		})
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the bubble hung")
	}
	read()
}
