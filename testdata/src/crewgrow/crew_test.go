package crewgrow

import (
	"testing"
	"time"
)

// TestGrow: the worker runs the queued job and leaves; Grow's worker
// runs its own later.
func TestGrow(t *testing.T) {
	ran := make([]bool, 2)
	c := New(1, func() { ran[0] = true })
	c.Start(1)
	time.Sleep(5 * time.Millisecond) // the first worker has left
	c.Grow(func() { ran[1] = true })
	c.Wait()
	if !ran[0] || !ran[1] {
		t.Errorf("ran %v, want both", ran)
	}
}
