package recheckwaitfixed

import (
	"testing"
	"time"
)

// TestWait: the test holds the only unit; a goroutine waits to acquire
// it; the test releases it 2 ms later, and the goroutine acquires it.
func TestWait(t *testing.T) {
	s := New(1)
	s.Acquire()
	done := make(chan struct{})
	go func() {
		s.Acquire()
		s.Release()
		close(done)
	}()
	time.Sleep(2 * time.Millisecond)
	s.Release()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("Acquire did not return after Release")
	}
}
