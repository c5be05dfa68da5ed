package drainq

import (
	"sync"
	"testing"
	"time"
)

// TestCall: two callers, the second a little later, each expect the
// answer to their own request.
func TestCall(t *testing.T) {
	s := &Server{}
	var wg sync.WaitGroup
	call := func(req int, wait time.Duration) {
		defer wg.Done()
		time.Sleep(wait)
		if got := s.Call(req); got != 2*req {
			t.Logf("Call(%d) = %d, the answer to another request", req, got)
		}
	}
	wg.Add(2)
	go call(1, 0)
	go call(2, 5*time.Millisecond)
	wg.Wait()
}
