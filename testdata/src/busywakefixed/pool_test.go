package busywakefixed

import (
	"sync"
	"testing"
)

// TestDone starts two workers in a pool of limit 3 and ends them
// concurrently: in any order each wakes the dispatcher, as the first
// schedule did.
func TestDone(t *testing.T) {
	p := NewPool(3)
	p.Start()
	p.Start()
	p.schedule()
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.Done()
		}()
	}
	wg.Wait()
	if n := p.Wakes(); n != 3 {
		t.Errorf("%d wake-ups, want 3", n)
	}
}
