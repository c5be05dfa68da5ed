package sliceappend

import "sync"

// Collect fetches every URL concurrently and returns the sizes of the
// responses, in completion order.
func Collect(urls []string, fetch func(url string) int) []int {
	var sizes []int
	var wg sync.WaitGroup
	for _, u := range urls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := fetch(u)
			sizes = append(sizes, n) // want "data race on "
		}()
	}
	wg.Wait()
	return sizes
}
