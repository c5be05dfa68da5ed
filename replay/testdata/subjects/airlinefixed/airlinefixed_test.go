package airlinefixed

import (
	"sync"
	"testing"
	"time"
)

func TestSell(t *testing.T) {
	f := NewFlight(2)
	issued := make([]bool, 3)
	var wg sync.WaitGroup
	for agent := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(agent) * 3 * time.Millisecond) // customers arrive one by one
			issued[agent] = f.Sell()
		}()
	}
	wg.Wait()

	n := 0
	for _, ok := range issued {
		if ok {
			n++
		}
	}
	if n != 2 || f.Sold() != 2 {
		t.Errorf("%d tickets issued, %d seats sold; want 2 and 2", n, f.Sold())
	}
}
