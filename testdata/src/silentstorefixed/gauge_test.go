package silentstorefixed

import (
	"sync"
	"testing"
	"time"
)

func TestRestore(t *testing.T) {
	var g Gauge
	g.Observe(10)
	saved := g.Peak() // its own checkpoint
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // the observation comes later
		g.Observe(20)
	}()
	go func() {
		defer wg.Done()
		g.Restore(saved)
	}()
	wg.Wait()
	if got := g.Peak(); got != 20 {
		t.Errorf("peak %d, want 20", got)
	}
}
