package relockfixed

import (
	"sync"
	"testing"
	"time"
)

func TestGetInvalidate(t *testing.T) {
	c := New(func() map[string]int { return map[string]int{"a": 1} })
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // a change upstream, later
		c.Invalidate()
	}()
	if got := c.Get("a"); got != 1 {
		t.Errorf("Get(a) = %d, want 1", got)
	}
	wg.Wait()
}
