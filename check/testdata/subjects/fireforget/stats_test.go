package fireforget

import "testing"

func TestHitAsync(t *testing.T) {
	s := &Stats{}
	s.HitAsync()
	if h := s.Hits(); h != 0 {
		t.Errorf("Hits = %d right after HitAsync; the count is meant to lag", h)
	}
}
