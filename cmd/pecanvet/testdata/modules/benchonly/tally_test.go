package tally

import (
	"sync"
	"testing"
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

func BenchmarkTwice(b *testing.B) {
	for i := 0; i < b.N; i++ {
		var tl Tally
		twice(&tl)
	}
}
