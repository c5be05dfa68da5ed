package mergesort

import (
	"slices"
	"sync"
	"testing"
	"time"
)

func TestTwoSorts(t *testing.T) {
	s := &Sorter{budget: NewBudget(1), minPar: 4}
	a := []int{9, 3, 7, 1, 8, 2, 6, 4}
	b := []int{15, 11, 14, 10, 13, 12}

	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		// The second request arrives later: after the first sort is done,
		// on a loaded machine too (its run then shows both sorts taking the
		// helper, which the prediction reorders).
		time.Sleep(50 * time.Millisecond)
		s.Sort(b)
	}()
	s.Sort(a)
	wg.Wait()

	if !slices.IsSorted(a) || !slices.IsSorted(b) {
		t.Fatalf("not sorted: %v %v", a, b)
	}
	if got := s.budget.Available(); got != 1 {
		t.Errorf("budget = %d after the sorts, want 1", got)
	}
}
