package claimbit

import (
	"runtime"
	"testing"
)

// TestPushPop pushes a count and a rejected one while the consumer pops
// the count, then finds the queue empty.
func TestPushPop(t *testing.T) {
	q := &Queue{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		q.Push(5)
		q.Push(-1) // rejected: counts are not negative
	}()
	for {
		v, ok := q.Pop()
		if ok {
			if v != 5 {
				t.Errorf("popped %d, want 5", v)
			}
			break
		}
		runtime.Gosched()
	}
	if v, ok := q.Pop(); ok {
		t.Errorf("popped %d from an empty queue", v)
	}
	<-done
}
