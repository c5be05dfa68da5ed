package app

import (
	"sync"
	"testing"

	"example.com/lib"
)

// twice adds to t from two goroutines at once.
func twice(t *Tally) {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Add()
		}()
	}
	wg.Wait()
}

func TestTwice(t *testing.T) {
	var tl Tally
	twice(&tl)
	if tl.N() != lib.Want {
		t.Fatalf("N = %d, want %d", tl.N(), lib.Want)
	}
}
