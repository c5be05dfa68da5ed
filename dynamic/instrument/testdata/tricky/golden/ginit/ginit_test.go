package ginit

import "testing"

func TestGolden(t *testing.T) {
	if Set() {
		t.Error("Set = true")
	}
	if got := Loop(); got != 2 {
		t.Errorf("Loop = %d", got)
	}
}
