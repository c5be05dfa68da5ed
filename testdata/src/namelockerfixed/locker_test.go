package namelockerfixed

import (
	"sync"
	"testing"
	"time"
)

// TestLocker: u makes the entry of "x" and, counted on it, waits at the
// gate before it locks it; r, started later, finds u's entry, counts
// itself, locks and unlocks "x" (the entry kept for u, still counted);
// the gate opens later still, and u locks and unlocks, deleting the
// entry. Every Unlock must find its entry.
func TestLocker(t *testing.T) {
	l := New()
	var gate sync.Mutex
	gate.Lock()
	l.pause = func() {
		gate.Lock()
		gate.Unlock()
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // u
		defer wg.Done()
		l.Lock("x")
		if err := l.Unlock("x"); err != nil {
			t.Errorf("u: %v", err)
		}
	}()
	time.Sleep(10 * time.Millisecond)
	go func() { // r
		defer wg.Done()
		l.mu.Lock()
		l.pause = nil
		l.mu.Unlock()
		l.Lock("x")
		if err := l.Unlock("x"); err != nil {
			t.Errorf("r: %v", err)
		}
	}()
	time.Sleep(20 * time.Millisecond)
	gate.Unlock()
	wg.Wait()
	if n := len(l.locks); n != 0 {
		t.Errorf("%d entries left, want 0", n)
	}
}
