package drvgetter

import "testing"

func TestAdd(t *testing.T) {
	c := NewCounter()
	c.Add(1)
	c.Add(2)
	if got := c.Total(); got != 3 {
		t.Errorf("total %d, want 3", got)
	}
}
