package windowsnap

import (
	"sync"
	"testing"
	"time"
)

// TestNewest: epoch 1 begins with an add of x while a reader, a little
// later, looks at the newest bucket: it must find epoch 0's, or epoch
// 1's with x counted.
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
		if e, c := w.Newest(); e == 1 && c["x"] != 1 {
			t.Errorf("epoch 1's bucket without its add: %v", c)
		}
	}()
	wg.Wait()
}
