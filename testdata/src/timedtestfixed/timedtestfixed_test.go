package timedtestfixed

import (
	"sync"
	"testing"
	"time"
)

// TestHits: two goroutines count a hit each; the test gives them a
// moment, reads the count, counts its own hit and checks the total. The
// first check is a timing assumption: it holds in an ordinary run, where
// both goroutines are done within the sleep, but not under a schedule
// that holds one of them past it.
func TestHits(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); c.Inc() }()
	}
	time.Sleep(50 * time.Millisecond) // both are done by now, it assumes
	early := c.Load()
	c.Inc()
	wg.Wait()
	if early != 2 {
		t.Errorf("after the sleep, count = %d, want 2", early)
	}
	if got := c.Load(); got != 3 {
		t.Errorf("count = %d, want 3", got)
	}
}
