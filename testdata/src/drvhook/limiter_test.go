package drvhook

import "testing"

func TestLimiter(t *testing.T) {
	c := NewLocal()
	l := NewLimiter(c, 2, 1)
	if !l.Allow("a") || !l.Allow("a") {
		t.Fatal("the first two requests denied")
	}
	if l.Allow("a") {
		t.Fatal("the third request allowed")
	}
	l.SetWindow(2)
	if l.Allow("b") != true || l.Allow("b") {
		t.Fatal("window 2: want the first request of b allowed, the second denied")
	}
}
