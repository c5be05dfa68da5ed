package bubblesortfixed

import (
	"slices"
	"sync"
	"testing"
	"time"
)

func TestMonitor(t *testing.T) {
	input := []int{3, 1, 2}
	s := Of(input...)

	var wg sync.WaitGroup
	var shot []int
	wg.Add(1)
	go func() { // the progress monitor
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		shot = s.Snapshot()
	}()
	BubbleSort(s)
	wg.Wait()

	sorted := slices.Sorted(slices.Values(shot))
	if !slices.Equal(sorted, []int{1, 2, 3}) {
		t.Errorf("monitor saw %v: not a permutation of %v", shot, input)
	}
	if got := s.Snapshot(); !slices.IsSorted(got) {
		t.Errorf("result %v not sorted", got)
	}
}
