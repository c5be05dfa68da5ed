package drvgeneric

import "testing"

func TestAdd(t *testing.T) {
	c := New[string, float64]()
	if !c.Add("a", 1) {
		t.Fatal("first Add did not store")
	}
	if c.Add("a", 2) {
		t.Fatal("second Add stored")
	}
	if c.Len() != 1 {
		t.Errorf("Len() = %d, want 1", c.Len())
	}
}
