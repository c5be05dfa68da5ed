package recurretry

import (
	"sync"
	"testing"
)

func TestAdvance(t *testing.T) {
	w := &Window{}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.Advance(3)
		}()
	}
	wg.Wait()
	if got := w.Last.Get(); got != 3 {
		t.Errorf("index %d, want 3", got)
	}
	if got := w.Steps(); got != 3 {
		t.Errorf("moved %d buckets, want 3", got)
	}
}
