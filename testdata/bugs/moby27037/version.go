//go:build go1.21

// Package moby27037 reduces moby/moby#27037
// (https://github.com/moby/moby/pull/27037, integration-cli: fix a data
// race on the loop variable in the API version test).
//
// A goroutine per API version (v1.17 to v1.21) formats "v1.%d" from the
// loop variable i, which the closure captures by reference: before Go
// 1.22 the loop has one i, which the loop goes on writing while the
// goroutines read it (a data race; the goroutines may all see 22). The
// go1.21 build line keeps that loop semantics in this file.
//
// Upstream fix: i is passed to the goroutine as an argument.
package moby27037

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
		go func() {
			defer wg.Done()
			v := fmt.Sprintf("v1.%d", i)
			mu.Lock()
			out = append(out, v)
			mu.Unlock()
		}()
		time.Sleep(2 * time.Millisecond) // one request at a time
	}
	wg.Wait()
	return out
}
