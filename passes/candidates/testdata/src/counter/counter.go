// Package counter is a counter incremented by two goroutines without a
// lock: a race on c.n and an atomicity violation of the increment.
package counter

import "sync"

type Counter struct{ n int }

// Inc is not atomic: c.n++ reads, then writes.
func (c *Counter) Inc() { c.n++ } // want `^candidate race RW: counter.go:10:29 counter.go:10:29$` `^candidate race WW: counter.go:10:29 counter.go:10:29$` `^candidate av RWW: counter.go:10:29 counter.go:10:29 counter.go:10:29$`

func Count() int {
	c := &Counter{}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Inc()
		}()
	}
	wg.Wait()
	return c.n // want `^candidate race RW: counter.go:23:11 counter.go:10:29$`
}
