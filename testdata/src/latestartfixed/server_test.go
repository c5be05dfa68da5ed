package latestartfixed

import "testing"

func TestHandle(t *testing.T) {
	s := &Server{}
	s.Handle("a")
	if n := s.Audited(); n > 1 {
		t.Errorf("audited %d requests, want at most 1", n)
	}
}

func TestServed(t *testing.T) {
	s := &Server{}
	s.Handle("b")
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.served != 1 {
		t.Errorf("served %d, want 1", s.served)
	}
}
