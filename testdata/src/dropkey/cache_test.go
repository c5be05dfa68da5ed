package dropkey

import (
	"sync"
	"testing"
	"time"
)

// TestDrop: two goroutines drop the same name, both looking it up before
// either deletes it (the gate holds them after the lookup); one entry is
// left, and one was dropped.
func TestDrop(t *testing.T) {
	c := New("a", "b")
	var gate sync.Mutex
	gate.Lock()
	c.between = func() {
		gate.Lock()
		gate.Unlock()
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		c.Drop("a")
	}()
	go func() {
		defer wg.Done()
		c.Drop("a")
	}()
	time.Sleep(50 * time.Millisecond)
	gate.Unlock()
	wg.Wait()
	if n := c.Len(); n != 1 {
		t.Errorf("len = %d, want 1", n)
	}
	if n := c.Drops(); n != 1 {
		t.Logf("drops = %d, want 1", n)
	}
}
