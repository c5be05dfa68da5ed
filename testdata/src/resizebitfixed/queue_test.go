package resizebitfixed

import (
	"testing"
	"time"
)

func TestClaims(t *testing.T) {
	q := &Queue{}
	got := make(chan uint64, 2)
	go func() { got <- q.Grow() }()
	time.Sleep(5 * time.Millisecond) // after the resize
	got <- q.Next()
	if a, b := <-got, <-got; a == b {
		t.Errorf("slot %d claimed twice", a)
	}
}
