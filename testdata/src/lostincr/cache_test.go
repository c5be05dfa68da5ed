package lostincr

import (
	"sync"
	"testing"
	"time"
)

func TestIncrement(t *testing.T) {
	var c Cache
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 5 * time.Millisecond) // the requests arrive apart
			c.Increment("k")
		}()
	}
	wg.Wait()
	if got := c.Count("k"); got != 2 {
		t.Errorf("count %d, want 2", got)
	}
}
