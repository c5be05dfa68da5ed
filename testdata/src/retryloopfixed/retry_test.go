package retryloopfixed

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

// TestShared runs two senders through one breaker of threshold 2, 5 ms
// apart: each fails once and then succeeds. The two failures trip the
// breaker at most once, whichever comes second.
func TestShared(t *testing.T) {
	b := NewBreaker(2)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 5 * time.Millisecond)
			(&Sender{strategy: b}).Send(failOnce())
		}(i)
	}
	wg.Wait()
	if n := b.Trips(); n > 1 {
		t.Errorf("two failures tripped the breaker %d times, want at most 1", n)
	}
}
