package apachequeue

import (
	"sync"
	"testing"
	"time"
)

func TestHandOff(t *testing.T) {
	q := NewQueue()
	c := new(Conn)

	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // a worker
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		Work(q)
	}()
	Listen(q, c)
	wg.Wait()

	if got := c.State(); got != Handled {
		t.Errorf("state = %d, want %d (handled)", got, Handled)
	}
}
