package rt

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestGCWaitBusy: a goroutine inside runtime.GC, waiting for the cycle it
// started, is busy (the collector ends that wait by itself), not a hard
// wait: Go's TestRaceFin calls runtime.GC before its sleep, and a replay
// whose watcher looked while the cycle ran was called deadlocked.
func TestGCWaitBusy(t *testing.T) {
	if !busyState("wait for GC cycle") {
		t.Fatal(`"wait for GC cycle" is not busy`)
	}
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		garbage := make([][]byte, 0, 1024)
		for !stop.Load() {
			garbage = append(garbage[:0], make([]byte, 1<<16))
			runtime.GC()
		}
		_ = garbage
	}()
	defer func() { stop.Store(true); <-done }()
	var buf []byte
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		var gs []gstate
		gs, buf = dumpGoroutines(buf[:cap(buf)])
		for _, g := range gs {
			if g.state == "wait for GC cycle" {
				if g.class != gBusy {
					t.Fatalf("a goroutine in runtime.GC is of class %v, want busy", g.class)
				}
				return
			}
		}
	}
	t.Skip("no goroutine seen waiting for a GC cycle within 5 s")
}
