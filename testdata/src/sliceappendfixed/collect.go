package sliceappendfixed

import "sync"

// Collect fetches every URL concurrently and returns the sizes of the
// responses, in the order of urls.
func Collect(urls []string, fetch func(url string) int) []int {
	sizes := make([]int, len(urls))
	var wg sync.WaitGroup
	for i, u := range urls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sizes[i] = fetch(u)
		}()
	}
	wg.Wait()
	return sizes
}
