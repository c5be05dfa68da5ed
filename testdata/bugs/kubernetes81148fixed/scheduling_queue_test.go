package kubernetes81148fixed

import (
	"testing"
	"time"
)

func TestFlushUnschedulableQLeftover(t *testing.T) {
	q := newPriorityQueue()
	stop := make(chan struct{})
	defer close(stop)
	q.run(stop, 40*time.Millisecond)
	time.Sleep(20 * time.Millisecond) // between two flushes
	q.addUnschedulable("high")
	backdate(q, "high")
	time.Sleep(40 * time.Millisecond) // the next flush
	q.lock.Lock()
	defer q.lock.Unlock()
	if len(q.activeQ) != 1 {
		t.Errorf("activeQ = %v, want the backdated pod", q.activeQ)
	}
}

// backdate makes the pod old enough to be flushed, under q.lock.
func backdate(q *PriorityQueue, pod string) {
	q.lock.Lock()
	defer q.lock.Unlock()
	q.unschedulableQ[pod].Timestamp = time.Now().Add(-2 * unschedulableQTimeInterval)
}
