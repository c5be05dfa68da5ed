package fireforgetfixed

import "testing"

func TestHitAsync(t *testing.T) {
	s := &Stats{}
	s.HitAsync()
	if h := s.Hits(); h != 0 && h != 1 {
		t.Errorf("Hits = %d after one HitAsync", h)
	}
}
