package handofffixed

import (
	"sync"
	"testing"
	"time"
)

func TestDo(t *testing.T) {
	g := New()
	var wg sync.WaitGroup
	got := make([]int, 2)
	wg.Add(2)
	go func() {
		defer wg.Done()
		got[0] = g.Do("k", func() int { return 42 })
	}()
	go func() {
		defer wg.Done()
		time.Sleep(20 * time.Millisecond)
		got[1] = g.Do("k", func() int { return 42 })
	}()
	wg.Wait()
	if got[0] != 42 || got[1] != 42 {
		t.Errorf("Do = %v, want [42 42]", got)
	}
}
