package silentstore

import (
	"sync"
	"testing"
	"time"
)

func TestRestore(t *testing.T) {
	var g Gauge
	g.Observe(10)
	saved := int64(30) // another replica's peak
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		g.Observe(20)
	}()
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // the restore comes later
		g.Restore(saved)
	}()
	wg.Wait()
	if got := g.Peak(); got != 30 {
		t.Errorf("peak %d, want 30", got)
	}
}
