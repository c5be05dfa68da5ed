package drvlit

import "testing"

type animal struct{ name string }

func TestPut(t *testing.T) {
	s := New()
	cat := &animal{"cat"}
	s.Put(cat)
	if s.Len() != 1 {
		t.Fatal(s.Len())
	}
}
