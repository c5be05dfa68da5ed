//go:build go1.21

// Package moby27037fixed is moby27037 with the upstream fix of
// https://github.com/moby/moby/pull/27037: i is passed to the goroutine.
package moby27037fixed

import (
	"fmt"
	"sync"
	"time"
)

func apiVersions() []string {
	var mu sync.Mutex
	var out []string
	var wg sync.WaitGroup
	for i := 17; i <= 21; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			v := fmt.Sprintf("v1.%d", i)
			mu.Lock()
			out = append(out, v)
			mu.Unlock()
		}(i)
		time.Sleep(2 * time.Millisecond) // one request at a time
	}
	wg.Wait()
	return out
}
