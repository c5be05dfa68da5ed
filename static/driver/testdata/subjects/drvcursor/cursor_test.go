package drvcursor

import "testing"

func TestWalk(t *testing.T) {
	s := &Store{}
	s.Put(1)
	s.Put(2)
	sum := 0
	for c := s.Cursor(); c.SetNext(); {
		v, _ := c.Value()
		sum += v
	}
	if sum != 3 || s.Len() != 2 {
		t.Errorf("sum %d, len %d", sum, s.Len())
	}
}
