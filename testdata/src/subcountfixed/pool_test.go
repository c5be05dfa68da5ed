package subcountfixed

import (
	"sync"
	"testing"
	"time"
)

// TestSubmitExit: a submit while an earlier worker exits.
func TestSubmitExit(t *testing.T) {
	parent := New(10, nil)
	sub := New(5, parent)
	sub.Submit()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // after the second submit
		sub.Exit()
	}()
	if !sub.Submit() {
		t.Error("submit refused below the limit")
	}
	wg.Wait()
	if n, q := parent.Counts(); n != 1 || q != 0 {
		t.Errorf("parent: %d workers, %d queued; want 1, 0", n, q)
	}
}
