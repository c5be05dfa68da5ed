package windowexport

import (
	"sync"
	"testing"
	"time"
)

// TestRotate: epoch 1 begins with an add of x while an exporter, a
// little later, rotates to epoch 2: it must export epoch 0's bucket, or
// epoch 1's with x counted (an exported bucket is final: a count that
// lands in it after its export is lost), never epoch 2's own, which
// Rotate(2) only opened.
func TestRotate(t *testing.T) {
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
		e, c := w.Rotate(2)
		if e == 1 && c["x"] != 1 {
			t.Errorf("epoch 1 exported without its add: %v", c)
		}
		if e == 2 {
			t.Errorf("Rotate(2) exported the bucket it opened: %v", c)
		}
	}()
	wg.Wait()
}
