// Package gwaitgroup fans out over a WaitGroup.
package gwaitgroup

import "sync"

// FanOut has three goroutines write their own element.
func FanOut() []int {
	out := make([]int, 3)
	var wg sync.WaitGroup
	wg.Add(3)
	for i := range 3 {
		go func() {
			defer wg.Done()
			out[i] = i * i
		}()
	}
	wg.Wait()
	return out
}
