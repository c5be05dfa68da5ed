package jobqueue

import (
	"sync"
	"testing"
	"time"
)

// TestTwoConsumers: one job, two consumers; the second tries a little
// later and finds the queue empty.
func TestTwoConsumers(t *testing.T) {
	q := &Queue{}
	q.Push(1)
	var wg sync.WaitGroup
	got := make([]bool, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 5 * time.Millisecond)
			_, got[i] = q.TryTake()
		}()
	}
	wg.Wait()
	if got[0] == got[1] {
		t.Errorf("takes %v, want one job taken once", got)
	}
}
