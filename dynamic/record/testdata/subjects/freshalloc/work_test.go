package freshalloc

import (
	"sync"
	"testing"
	"time"
)

func TestWork(t *testing.T) {
	const n = 3000 // 6 MB of items: the GC runs while the workers work
	var tot Totals
	var k1, k2 Keep
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // the second batch arrives later
		Work(&tot, &k2, n)
	}()
	Work(&tot, &k1, n)
	wg.Wait()
	if want := 2 * Sum(n); tot.n != want {
		t.Errorf("total %d, want %d", tot.n, want)
	}
}
