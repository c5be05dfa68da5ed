package sliceclearfixed

import (
	"sync"
	"testing"
	"time"
)

// TestDropTwice: two Drops of one buffer, the second between the first's
// clear and its sum (the gate holds the first): both sum nothing.
func TestDropTwice(t *testing.T) {
	b := &Buffer{}
	b.Add(1)
	var gate, mu sync.Mutex
	calls := 0
	gate.Lock()
	b.between = func() {
		mu.Lock()
		calls++
		first := calls == 1
		mu.Unlock()
		if first {
			gate.Lock()
			gate.Unlock()
		}
	}
	var first int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		first = b.Drop()
	}()
	time.Sleep(50 * time.Millisecond)
	second := b.Drop()
	gate.Unlock()
	wg.Wait()
	if first != 0 || second != 0 {
		t.Errorf("Drop summed %d and %d after the clears, want 0 and 0", first, second)
	}
}
