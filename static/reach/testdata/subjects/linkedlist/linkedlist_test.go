package linkedlist

import (
	"slices"
	"sync"
	"testing"
	"time"
)

func TestTwoAppends(t *testing.T) {
	l := Of(1, 2)

	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		l.AddLast(4)
	}()
	l.AddLast(3)
	wg.Wait()

	got := l.Slice()
	if want := []int{1, 2, 3, 4}; !slices.Equal(got, want) || l.Len() != len(want) {
		t.Fatalf("list = %v with size %d, want %v", got, l.Len(), want)
	}
	if v, ok := l.RemoveFirst(); !ok || v != 1 || l.Len() != 3 {
		t.Errorf("RemoveFirst = %d, %v; size %d", v, ok, l.Len())
	}
}
