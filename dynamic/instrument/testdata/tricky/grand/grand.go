// Package grand draws from math/rand and math/rand/v2 in two goroutines
// at once: recorded, each draws from a generator of its own seeded by
// its name, so two recordings draw the same numbers however the two
// interleave.
package grand

import (
	"fmt"
	"math/rand"
	randv2 "math/rand/v2"
	"sync"
)

// Draws returns what each goroutine drew.
func Draws() string {
	var wg sync.WaitGroup
	out := make([]string, 2)
	for i := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := rand.Perm(4)
			out[i] = fmt.Sprint(rand.Intn(1e9), rand.Int63(), randv2.IntN(1e9), randv2.Uint64(), p)
		}()
	}
	wg.Wait()
	return fmt.Sprint(out)
}
