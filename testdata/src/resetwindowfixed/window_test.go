package resetwindowfixed

import (
	"sync"
	"testing"
	"time"
)

// TestRestartSlide restarts the breaker while its window slides once,
// then counts a request and slides twice more: a window of three buckets
// keeps the count.
func TestRestartSlide(t *testing.T) {
	c := NewBreaker(3)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		c.Restart()
	}()
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		c.rec.slide()
	}()
	wg.Wait()
	c.rec.Inc()
	c.rec.slide()
	c.rec.slide()
	if got := c.rec.Total(); got != 1 {
		t.Fatalf("total %d after two slides, want 1", got)
	}
}
