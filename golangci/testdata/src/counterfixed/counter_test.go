package counterfixed

import "testing"

func TestHitAll(t *testing.T) {
	var c Counter
	HitAll(&c, 2)
	if n := c.Value(); n != 2 {
		t.Errorf("n = %d, want 2", n)
	}
}
