package glang

import "testing"

func TestGolden(t *testing.T) {
	if got := Sum([]int{1, 2, 3}); got != 9 {
		t.Errorf("Sum = %d", got)
	}
	if got := Result(); got != 7 {
		t.Errorf("Result = %d", got)
	}
	if got := Explicit(); got != 42 {
		t.Errorf("Explicit = %d", got)
	}
	if got := Copy(make([]int, 2), []int{4, 5, 6}); got != 2 {
		t.Errorf("Copy = %d", got)
	}
	if got := Append(make([]int, 1, 2)); len(got) != 4 || got[3] != 3 {
		t.Errorf("Append = %v", got)
	}
	if got := Len(map[string]int{}); got != 1 {
		t.Errorf("Len = %d", got)
	}
	if got := Whole(&Pair{A: 1}); got.B != 2 {
		t.Errorf("Whole = %v", got)
	}
}
