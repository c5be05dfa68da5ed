package jobqueue

import (
	"sync"
	"testing"
	"time"
)

// TestDrainClear: one job queued; Drain moves it while another
// goroutine, a little later, clears the queue. Every batch should hold a
// job; an empty one is logged (the test passes).
func TestDrainClear(t *testing.T) {
	q := &Queue{}
	q.Push(1)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		q.Drain()
	}()
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		q.Clear()
	}()
	wg.Wait()
	if q.batches > len(q.done) {
		t.Logf("%d batches, %d jobs drained: an empty batch", q.batches, len(q.done))
	}
}
