package sliceclearfixed

import (
	"sync"
	"testing"
	"time"
)

// TestDropClear: a Clear between a Drop's clear and its sum (the gate
// holds the Drop): the Drop sums nothing.
func TestDropClear(t *testing.T) {
	b := &Buffer{}
	b.Add(1)
	var gate sync.Mutex
	gate.Lock()
	b.between = func() {
		gate.Lock()
		gate.Unlock()
	}
	var first int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		first = b.Drop()
	}()
	time.Sleep(50 * time.Millisecond)
	b.Clear()
	gate.Unlock()
	wg.Wait()
	if first != 0 {
		t.Errorf("Drop summed %d after the clears, want 0", first)
	}
}
