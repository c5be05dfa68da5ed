package gauge

import (
	"sync"
	"testing"
	"time"
)

func TestGauge(t *testing.T) {
	var g Gauge
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { // a long call
		defer wg.Done()
		g.Run(func() { time.Sleep(10 * time.Millisecond) })
	}()
	go func() { // a short call during the long one
		defer wg.Done()
		time.Sleep(3 * time.Millisecond)
		g.Run(func() {})
	}()
	go func() { // a new batch, after both
		defer wg.Done()
		time.Sleep(500 * time.Millisecond) // long after both, even on a loaded machine
		g.Reset()
	}()
	wg.Wait()
	if r := g.Running(); r != 0 {
		t.Errorf("running = %d after every call returned, want 0", r)
	}
}
