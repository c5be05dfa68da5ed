package buggyprg

import (
	"testing"
	"time"
)

func TestRun(t *testing.T) {
	chunks := [][]int{{1, 2, 3}, {4, 5}, {6}}
	r := Run(chunks, 4*time.Millisecond)

	if got := len(r.Parts()); got != len(chunks) {
		t.Fatalf("%d parts filed, want %d", got, len(chunks))
	}
	sum := 0
	for _, p := range r.Parts() {
		sum += p
	}
	const want = 1 + 4 + 9 + 16 + 25 + 36
	if sum != want || r.Total() != want {
		t.Errorf("sum of parts = %d, total = %d, want %d", sum, r.Total(), want)
	}
}
