package poolsum

import "testing"

func TestSum(t *testing.T) {
	items := make([]int, 100)
	want := 0
	for i := range items {
		items[i] = i
		want += i * i
	}
	if got := Sum(items); got != want {
		t.Errorf("Sum = %d, want %d", got, want)
	}
}
