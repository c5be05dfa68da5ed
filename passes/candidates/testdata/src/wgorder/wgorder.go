// Package wgorder orders a goroutine's write before the spawner's read
// with a WaitGroup. That is correct, but the static analysis does not
// model happens-before: it over-approximates and reports a candidate race,
// which the dynamic engine will not confirm.
package wgorder

import "sync"

func Compute() int {
	result := 0
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		result = 42
	}()
	wg.Wait()
	return result // want `^candidate race RW: wgorder.go:18:9 wgorder.go:15:3$`
}
