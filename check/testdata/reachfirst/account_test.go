package reachfirst

import (
	"sync"
	"testing"
)

func TestAaaDouble(t *testing.T) {
	if Double(3) != 6 {
		t.Fail()
	}
}

func TestZzzAdd(t *testing.T) {
	var a Account
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.Add(1)
		}()
	}
	wg.Wait()
	if a.Balance() != 2 {
		t.Errorf("balance %d", a.Balance())
	}
}
