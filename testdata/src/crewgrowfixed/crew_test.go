package crewgrowfixed

import (
	"testing"
	"time"
)

// TestLeave: of two workers, one takes the only job and the other
// leaves.
func TestLeave(t *testing.T) {
	ran := false
	c := New(2, func() { ran = true })
	c.Start(2)
	c.Wait()
	if !ran || c.n != 0 {
		t.Errorf("ran %v, %d workers left; want true, 0", ran, c.n)
	}
}

// TestHire: Hire adds a worker below the limit after the first one has
// left.
func TestHire(t *testing.T) {
	ran := make([]bool, 2)
	c := New(2, func() { ran[0] = true })
	c.Start(1)
	time.Sleep(5 * time.Millisecond) // the first worker has left
	if !c.Hire(func() { ran[1] = true }) {
		t.Error("hire refused below the limit")
	}
	c.Wait()
	if !ran[0] || !ran[1] {
		t.Errorf("ran %v, want both", ran)
	}
}
