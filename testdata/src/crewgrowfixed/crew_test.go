package crewgrowfixed

import "testing"

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
