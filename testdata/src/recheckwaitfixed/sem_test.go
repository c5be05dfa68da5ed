package recheckwaitfixed

import (
	"context"
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

// TestSetLimit is marusama/semaphore's
// TestSemaphore_SetLimit_increase_broadcast: a goroutine waits to
// acquire; the test raises the limit, which wakes it, and checks the
// count at once, which the woken goroutine's acquire races. A run that
// lets the waiter acquire right after SetLimit fails here whatever the
// interleaving: the test's own timing.
func TestSetLimit(t *testing.T) {
	s := New(1)
	s.Acquire()
	done := make(chan struct{})
	go func() {
		s.Acquire()
		close(done)
	}()
	time.Sleep(20 * time.Millisecond)
	s.SetLimit(2)
	if n := s.Count(); n != 1 {
		t.Errorf("count = %d right after SetLimit, want 1", n)
	}
	<-done
}

// TestReleases is marusama/semaphore's
// TestSemaphore_weighted_acquire_gt_release, small: the test holds all
// three units, three goroutines release one each at once, and the test,
// full, acquires while they release; three rounds.
func TestReleases(t *testing.T) {
	for round := 0; round < 3; round++ {
		s := New(3)
		start := make(chan struct{})
		for i := 0; i < 3; i++ {
			s.Acquire()
			go func() {
				<-start
				s.Release()
			}()
		}
		go close(start)
		s.Acquire()
	}
}

// TestWeighted is marusama/semaphore's
// TestSemaphore_weighted_acquire_gt_release, small: the test holds all
// four units, four goroutines release one each at once, and the test
// acquires two with AcquireCtx while they release; three rounds.
func TestWeighted(t *testing.T) {
	for round := 0; round < 3; round++ {
		s := New(4)
		start := make(chan struct{})
		for i := 0; i < 4; i++ {
			s.Acquire()
			go func() {
				<-start
				s.Release()
			}()
		}
		go close(start)
		if err := s.AcquireCtx(context.TODO(), 2); err != nil {
			t.Fatal(err)
		}
	}
}
