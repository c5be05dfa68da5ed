package countqueuefixed

import (
	"sync"
	"testing"
	"time"
)

// TestConsumerProducer: one job queued; the one consumer takes it while
// a producer, a little later, counts and appends another.
func TestConsumerProducer(t *testing.T) {
	q := &Queue{}
	q.Push(1)
	var wg sync.WaitGroup
	var got int
	var ok bool
	wg.Add(2)
	go func() {
		defer wg.Done()
		got, ok = q.TryTake()
	}()
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		q.Push(2)
	}()
	wg.Wait()
	if !ok || got != 1 {
		t.Errorf("TryTake = %d, %v, want 1, true", got, ok)
	}
	if j, ok := q.TryTake(); !ok || j != 2 {
		t.Errorf("second TryTake = %d, %v, want 2, true", j, ok)
	}
}
