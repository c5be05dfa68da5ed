package critical

import (
	"sync"
	"testing"
	"time"
)

func TestMutualExclusion(t *testing.T) {
	var s Section
	var order []int // appended to inside the section only

	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		s.Run(2, func() { order = append(order, 2) })
	}()
	s.Run(1, func() { order = append(order, 1) })
	wg.Wait()

	if len(order) != 2 {
		t.Fatalf("entered %v, want both goroutines once", order)
	}
}
