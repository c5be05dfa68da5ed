package progress

import "testing"

func TestRun(t *testing.T) {
	seen, final := Run(3)
	if seen < 0 || seen > 3 || final != 3 {
		t.Fatalf("seen %d, final %d; want at most 3, and 3", seen, final)
	}
}
