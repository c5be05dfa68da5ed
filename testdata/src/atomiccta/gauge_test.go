package atomiccta

import (
	"sync"
	"testing"
	"time"
)

func TestObserve(t *testing.T) {
	var g Gauge
	var wg sync.WaitGroup
	for i, v := range []int64{10, 20} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 5 * time.Millisecond) // the samples arrive apart
			g.Observe(v)
		}()
	}
	wg.Wait()
	if got := g.Peak(); got != 20 {
		t.Errorf("peak %d, want 20", got)
	}
}
