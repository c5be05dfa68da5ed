package restartstack

import (
	"sync"
	"testing"
	"time"
)

// TestPush: two goroutines push one value each, the second 2 ms after
// the first; the stack pops both.
func TestPush(t *testing.T) {
	s := &Stack{}
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(g) * 2 * time.Millisecond)
			if !s.Push(g + 1) {
				t.Errorf("push %d refused before Close", g+1)
			}
		}()
	}
	wg.Wait()
	n := 0
	for {
		if _, ok := s.Pop(); !ok {
			break
		}
		n++
	}
	if n != 2 {
		t.Errorf("popped %d values, want 2", n)
	}
}
