package backofffixed

import (
	"errors"
	"sync"
	"testing"
	"time"
)

// failOnce returns a send that fails on its first call only.
func failOnce() func() error {
	n := 0
	return func() error {
		n++
		if n == 1 {
			return errors.New("busy")
		}
		return nil
	}
}

// TestNumbers runs two senders through one Backoff, 5 ms apart: each
// fails once, and the two failures get two numbers.
func TestNumbers(t *testing.T) {
	var b Backoff
	var wg sync.WaitGroup
	got := make([][]int64, 2)
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 5 * time.Millisecond)
			got[i] = b.Send(failOnce())
		}(i)
	}
	wg.Wait()
	if len(got[0]) != 1 || len(got[1]) != 1 || got[0][0] == got[1][0] {
		t.Errorf("failure numbers %v and %v, want one each, apart", got[0], got[1])
	}
}
