package gwaitgroup

import "testing"

func TestGolden(t *testing.T) {
	if out := FanOut(); out[2] != 4 {
		t.Fatal(out)
	}
}
