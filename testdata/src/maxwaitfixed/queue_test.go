package maxwaitfixed

import (
	"testing"
	"time"
)

// TestQueue: five jobs, submitted 2 ms apart, each 1 ms long, run in
// order on the one worker, none waiting near MaxWait (5 ms); then a
// last job and a Cancel on shutdown, which may run it or drop it.
func TestQueue(t *testing.T) {
	q := New(5 * time.Millisecond)
	res := make(chan int, 6)
	for i := range 5 {
		time.Sleep(2 * time.Millisecond) // the jobs enter in order
		q.Submit(func() {
			time.Sleep(time.Millisecond)
			res <- i
		})
	}
	for i := range 5 {
		select {
		case got := <-res:
			if got != i {
				t.Errorf("job %d ran as number %d", got, i)
			}
		case <-time.After(time.Second):
			t.Fatalf("job %d did not run within 1 s (%d dropped)", i, q.Dropped())
		}
	}
	if d := q.Dropped(); d != 0 {
		t.Errorf("%d jobs waited more than %v and were dropped", d, q.MaxWait)
	}
	q.Submit(func() { res <- 5 })
	time.Sleep(2 * time.Millisecond)
	q.Cancel()
	time.Sleep(2 * time.Millisecond)
}
