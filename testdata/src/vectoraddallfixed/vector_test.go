package vectoraddallfixed

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// later runs f in a goroutine after a short delay and returns a wait func.
func later(f func()) (wait func()) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		f()
	}()
	return wg.Wait
}

func TestVectorAddAll(t *testing.T) {
	var dst, src Vector[int]
	dst.Add(0)
	src.Add(1)
	src.Add(2)

	wait := later(src.RemoveAllElements)
	dst.AddAll(&src)
	wait()

	if got := dst.Slice(); !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("dst = %v", got)
	}
	if src.Size() != 0 {
		t.Errorf("src not cleared")
	}
}

func TestStackAddAll(t *testing.T) {
	var dst, src Stack[string]
	src.Push("a")
	src.Push("b")

	var popped string
	wait := later(func() { popped = src.Pop() })
	dst.AddAll(&src.Vector)
	wait()

	if got := dst.Slice(); !slices.Equal(got, []string{"a", "b"}) || popped != "b" {
		t.Errorf("dst = %v, popped %q", got, popped)
	}
}
