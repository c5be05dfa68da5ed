package drvserialfixed

import "testing"

func TestAdd(t *testing.T) {
	c := NewClock()
	c.Add(1)
	c.Add(2)
	if got := c.Now(); got != 3 {
		t.Errorf("Now() = %d, want 3", got)
	}
}
