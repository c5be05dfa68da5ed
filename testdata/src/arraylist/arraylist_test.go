package arraylist

import (
	"slices"
	"sync"
	"testing"
	"time"
)

func TestAddAllThenRemove(t *testing.T) {
	dst := Of("x")
	src := Of("a", "b", "c")

	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		if got := src.RemoveAt(0); got != "a" {
			t.Errorf("removed %q, want a", got)
		}
	}()
	dst.AddAll(src)
	wg.Wait()

	if got, want := dst.Slice(), []string{"x", "a", "b", "c"}; !slices.Equal(got, want) {
		t.Errorf("dst = %v, want %v", got, want)
	}
	if got, want := src.Slice(), []string{"b", "c"}; !slices.Equal(got, want) {
		t.Errorf("src = %v, want %v", got, want)
	}
}
