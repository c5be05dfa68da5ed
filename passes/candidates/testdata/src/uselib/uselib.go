// Package uselib increments a lib.Counter from goroutines: the accesses
// come from lib's summaries (facts) and are reported at the calls.
package uselib

import "lib"

func Run(c *lib.Counter) int {
	for range 2 {
		go c.Inc() // want `^candidate race RW: uselib.go:9:3\(via lib.go:7:29\) uselib.go:9:3\(via lib.go:7:29\)$` `^candidate race WW: uselib.go:9:3\(via lib.go:7:29\) uselib.go:9:3\(via lib.go:7:29\)$` `^candidate av RWW: uselib.go:9:3\(via lib.go:7:29\) uselib.go:9:3\(via lib.go:7:29\) uselib.go:9:3\(via lib.go:7:29\)$`
	}
	return c.Get() // want `^candidate race RW: uselib.go:11:14\(via lib.go:9:40\) uselib.go:9:3\(via lib.go:7:29\)$`
}
