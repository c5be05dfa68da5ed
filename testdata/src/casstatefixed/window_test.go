package casstatefixed

import (
	"sync"
	"testing"
	"time"
)

func TestSlide(t *testing.T) {
	w := New(10)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.Slide(5)
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // after the slides
		if got := w.Width(); got != 10 {
			t.Errorf("width %d, want 10", got)
		}
	}()
	wg.Wait()
	if got := w.Width(); got != 10 {
		t.Errorf("width %d after the slides, want 10", got)
	}
}
