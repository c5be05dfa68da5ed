package gescape

import "testing"

func TestGolden(t *testing.T) {
	if Locals(3) != 3 {
		t.Fatal("locals")
	}
}
