package gpool

import "testing"

// TestGolden: recorded, the buffer comes back and New runs once (the
// golden trace); a plain run's pool may drop it at a GC, and then New
// runs again.
func TestGolden(t *testing.T) {
	if same, news := Reuse(); same != (news == 1) {
		t.Errorf("Reuse = %v, %d", same, news)
	}
}
