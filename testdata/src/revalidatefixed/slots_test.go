package revalidatefixed

import (
	"sync"
	"testing"
	"time"
)

func TestTake(t *testing.T) {
	s := New(2)
	var wg sync.WaitGroup
	ok := make([]bool, 2)
	for i := range ok {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 5 * time.Millisecond) // one after the other
			ok[i] = s.Take()
		}(i)
	}
	wg.Wait()
	if !ok[0] || !ok[1] || s.Taken() != 2 {
		t.Errorf("taken %v, count %d; want both, 2", ok, s.Taken())
	}
}
