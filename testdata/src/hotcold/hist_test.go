package hotcold

import (
	"sync"
	"testing"
	"time"
)

func TestWrite(t *testing.T) {
	var h Hist
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.Observe(1)
		}()
	}
	time.Sleep(10 * time.Millisecond) // the observations come first
	count, n, sum := h.Write()
	if n != count || sum != float64(count) {
		t.Errorf("count %d, shard count %d sum %g", count, n, sum)
	}
	wg.Wait()
}
