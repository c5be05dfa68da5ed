package pluseq

import (
	"sync"
	"testing"
	"time"
)

func TestAdd(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 5 * time.Millisecond)
			c.Add(2)
		}()
	}
	wg.Wait()
	if c.n != 4 {
		t.Errorf("n = %d, want 4", c.n)
	}
}

func TestInc(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 5 * time.Millisecond)
			c.Inc()
		}()
	}
	wg.Wait()
	if c.m != 2 {
		t.Errorf("m = %d, want 2", c.m)
	}
}
