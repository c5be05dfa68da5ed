package treeset

import (
	"slices"
	"sync"
	"testing"
	"time"
)

func TestAddWhileListing(t *testing.T) {
	s := new(TreeSet[int])
	for _, v := range []int{2, 4, 6} {
		s.Add(v)
	}
	var added []int
	s.OnAdd = func(v int) { added = append(added, v) }

	var wg sync.WaitGroup
	var listed []int
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // a reporter lists the set afterwards
		listed = s.ToSlice()
	}()
	s.Add(5)
	wg.Wait()

	if want := []int{2, 4, 5, 6}; !slices.Equal(listed, want) {
		t.Errorf("listed %v, want %v", listed, want)
	}
	if s.Len() != 4 || !slices.Equal(added, []int{5}) {
		t.Errorf("Len = %d, listener saw %v", s.Len(), added)
	}
}
