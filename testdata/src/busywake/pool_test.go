package busywake

import (
	"sync"
	"testing"
)

// TestDone starts two workers in a pool of limit 1 and ends them
// concurrently: run one after the other, the dispatcher is woken once
// (at the second), besides the first schedule's wake-up.
func TestDone(t *testing.T) {
	p := NewPool(1)
	p.schedule()
	p.Start()
	p.Start()
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.Done()
		}()
	}
	wg.Wait()
	if n := p.Wakes() - 1; n != 1 {
		t.Logf("%d wake-ups for 2 workers done, a serial order gives 1", n)
	}
}
