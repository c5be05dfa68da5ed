package windowsnapfixed

import (
	"sync"
	"testing"
	"time"
)

// TestNewest: epoch 1 begins with an add of x while a reader, a little
// later, makes epoch 1 current and looks at its bucket: x counted once
// or not yet, never another epoch.
func TestNewest(t *testing.T) {
	w := &Windows{}
	w.Add(0, "y")
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		w.Add(1, "x")
	}()
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		if e, c := w.Newest(1); e != 1 || c["x"] > 1 {
			t.Errorf("Newest(1) = %d, %v", e, c)
		}
	}()
	wg.Wait()
}
