package heaptimerfixed

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestFireWithinSleep is antlabs/timer's Test_Reset (min heap): two 1 ms
// timers must have fired within the test's 20 ms sleep; Stop after them
// does nothing.
func TestFireWithinSleep(t *testing.T) {
	tm := New()
	go tm.Run()
	defer tm.Close()
	var mu sync.Mutex
	var count int32
	closed := false
	f := func() {
		mu.Lock()
		if !closed {
			atomic.AddInt32(&count, 1)
		}
		mu.Unlock()
	}
	n1 := tm.AfterFunc(time.Millisecond, f)
	n2 := tm.AfterFunc(time.Millisecond, f)
	time.Sleep(20 * time.Millisecond)
	mu.Lock()
	closed = true
	n1.Stop()
	n2.Stop()
	mu.Unlock()
	if c := atomic.LoadInt32(&count); c != 2 {
		t.Errorf("count = %d, want 2: the callbacks ran within the sleep", c)
	}
}

// TestStopPending stops a pending timer while another goroutine adds
// one that is due sooner: the new one must still fire.
func TestStopPending(t *testing.T) {
	tm := New()
	go tm.Run()
	defer tm.Close()
	var count int32
	f := func() { atomic.AddInt32(&count, 1) }
	tm.AfterFunc(time.Millisecond, f)
	n2 := tm.AfterFunc(time.Hour, f)
	time.Sleep(20 * time.Millisecond)
	done := make(chan bool)
	go func() {
		time.Sleep(5 * time.Millisecond)
		tm.AfterFunc(time.Millisecond, f)
		done <- true
	}()
	n2.Stop()
	<-done
	time.Sleep(20 * time.Millisecond)
	if c := atomic.LoadInt32(&count); c != 2 {
		t.Errorf("count = %d, want 2: stopping one timer lost another", c)
	}
}
