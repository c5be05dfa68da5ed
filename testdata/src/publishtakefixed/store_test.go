package publishtakefixed

import (
	"sync"
	"testing"
	"time"
)

func TestTake(t *testing.T) {
	s := New()
	var wg sync.WaitGroup
	got := make([]bool, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 5 * time.Millisecond) // the takers start apart
			got[i] = s.Take("k", 3)
		}()
	}
	wg.Wait()
	for i, ok := range got {
		if !ok {
			t.Errorf("take %d refused, want both of 3 tokens taken", i)
		}
	}
}
