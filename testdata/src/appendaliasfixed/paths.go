package appendaliasfixed

import (
	"strings"
	"sync"
)

// Paths returns prefix/name(i) for i < n, computing the names
// concurrently.
func Paths(prefix []string, n int, name func(i int) string) []string {
	out := make([]string, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			nm := name(i)
			p := append(prefix[:len(prefix):len(prefix)], nm)
			out[i] = strings.Join(p, "/")
		}()
	}
	wg.Wait()
	return out
}
