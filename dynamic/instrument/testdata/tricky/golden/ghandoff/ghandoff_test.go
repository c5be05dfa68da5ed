package ghandoff

import "testing"

func TestGolden(t *testing.T) {
	if Handoff() != 3 {
		t.Fatal("sum")
	}
}
