package namedreturn

import "testing"

func TestSingle(t *testing.T) {
	s := New(100)
	if unit, total := s.Quote(2); unit != 100 || total != 200 {
		t.Errorf("quote %d, %d; want 100, 200", unit, total)
	}
	if a := <-s.audit; a != 100 {
		t.Errorf("audited %d, want 100", a)
	}
}

func TestBulk(t *testing.T) {
	s := New(100)
	if unit, total := s.Quote(10); unit != 99 || total != 990 {
		t.Errorf("quote %d, %d; want 99, 990", unit, total)
	}
	if a := <-s.audit; a != 100 {
		t.Errorf("audited %d, want 100", a)
	}
}
