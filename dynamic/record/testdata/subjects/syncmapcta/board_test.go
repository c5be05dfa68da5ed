package syncmapcta

import (
	"sync"
	"testing"
	"time"
)

func TestSubmit(t *testing.T) {
	var b Board
	var wg sync.WaitGroup
	for i, score := range []int{10, 20} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 5 * time.Millisecond) // the games end apart
			b.Submit("ann", score)
		}()
	}
	wg.Wait()
	if got := b.Best("ann"); got != 20 {
		t.Errorf("best %d, want 20", got)
	}
}
