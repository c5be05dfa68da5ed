package restartstackfixed

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestPushPop: two goroutines push 1000 values each while two others pop
// 1000 each; every value is popped once, and a push after Close is
// refused.
func TestPushPop(t *testing.T) {
	const n = 1000
	s := &Stack{}
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range n {
				if !s.Push(g*n + i) {
					t.Errorf("push %d refused before Close", g*n+i)
				}
			}
		}()
	}
	var popped [2][]int
	for g := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for len(popped[g]) < n {
				if v, ok := s.Pop(); ok {
					popped[g] = append(popped[g], v)
				} else {
					runtime.Gosched()
				}
			}
		}()
	}
	wg.Wait()
	seen := map[int]bool{}
	for _, vs := range popped {
		for _, v := range vs {
			if seen[v] {
				t.Errorf("popped %d twice", v)
			}
			seen[v] = true
		}
	}
	if v, ok := s.Pop(); ok {
		t.Errorf("popped %d from a stack that should be empty", v)
	}
	s.Close()
	if s.Push(-1) {
		t.Errorf("push after Close accepted")
	}
}

// TestPush: two goroutines push one value each, the second 2 ms after
// the first; the stack pops both.
func TestPush(t *testing.T) {
	s := &Stack{}
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(g) * 2 * time.Millisecond)
			if !s.Push(g + 1) {
				t.Errorf("push %d refused before Close", g+1)
			}
		}()
	}
	wg.Wait()
	n := 0
	for {
		if _, ok := s.Pop(); !ok {
			break
		}
		n++
	}
	if n != 2 {
		t.Errorf("popped %d values, want 2", n)
	}
}
