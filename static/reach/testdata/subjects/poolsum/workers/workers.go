// Package workers calls a function for a range of indices on a few
// goroutines.
package workers

import (
	"sync"
	"time"
)

// Each calls f(i) for every i in [0, n), on four goroutines of its own
// (goroutine w takes w, w+4, …, starting 2w ms late), and returns when
// every call has.
func Each(n int, f func(int)) {
	const k = 4
	var wg sync.WaitGroup
	for w := 0; w < k; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(w) * 2 * time.Millisecond) // the workers come up one by one
			for i := w; i < n; i += k {
				f(i)
			}
		}()
	}
	wg.Wait()
}
