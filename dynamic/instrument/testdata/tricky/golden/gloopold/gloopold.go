//go:build go1.21

// Package gloopold is written in Go 1.21: one iteration variable is shared
// by all the iterations of a loop, so the goroutines that capture it race
// with the next iteration's assignment.
package gloopold

import "sync"

// Names starts a goroutine per name that reads the shared loop variable.
func Names(names []string) []string {
	out := make([]string, len(names))
	var wg sync.WaitGroup
	for i, n := range names {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			out[i] = n
		}(i)
		wg.Wait()
	}
	return out
}
