package drvhook

import "testing"

func TestLimiter(t *testing.T) {
	c, s := NewLocal(), NewStore()
	l := NewLimiter(c, s, 1)
	if !l.Allow("a") {
		t.Fatal("denied")
	}
	l.Grow(2)
	s.Put(1)
	c.Inc("b")
}
