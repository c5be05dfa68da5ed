package sweep

import (
	"sync"
	"testing"
	"time"
)

func TestSweepAndSet(t *testing.T) {
	var evicted []string
	c := New(func(k string) { evicted = append(evicted, k) })
	c.Set("ann", 1)
	c.Set("bob", 2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		c.Sweep(10)
		t.Logf("evicted %v", evicted)
	}()
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // after the sweep
		c.Set("ann", 20)
	}()
	wg.Wait()
	t.Logf("%d entries left", c.Len())
}
