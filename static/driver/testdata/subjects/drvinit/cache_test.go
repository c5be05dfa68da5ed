package drvinit

import "testing"

func TestCache(t *testing.T) {
	c := NewCache(2)
	c.Add(1)
	c.Clear()
	if c.Len() != 0 {
		t.Fatal("not cleared")
	}
}

func TestGate(t *testing.T) {
	if NewGate().Open() != 1 {
		t.Fatal("not initialised")
	}
}
