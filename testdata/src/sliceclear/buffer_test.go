package sliceclear

import (
	"sync"
	"testing"
	"time"
)

// TestDropThenAdd: an Add between a Drop's clear and its sum (the gate
// holds the Drop): the Drop sums the value added after its clear. No
// value is lost or counted twice (it is summed by the Drop or left for
// the next), so the test only logs it.
func TestDropThenAdd(t *testing.T) {
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
	b.Add(2)
	gate.Unlock()
	wg.Wait()
	if first != 0 {
		t.Logf("Drop summed %d after its clear: a value added after the clear", first)
	}
	b.between = nil
	if rest := b.Drop(); first+rest != 2 {
		t.Errorf("Drop summed %d, then %d: want 2 in all", first, rest)
	}
}
