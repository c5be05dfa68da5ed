package selectleak

import (
	"errors"
	"time"
)

var errTimeout = errors.New("fetch: timed out")

// Fetch computes a value in a goroutine and waits for it at most d.
func Fetch(compute func() int, d time.Duration) (int, error) {
	ch := make(chan int)
	go func() {
		ch <- compute() // want "goroutine g[0-9.]+ blocked forever in chan send at fetch\\.go:14: its receiver returned at fetch\\.go:17 \\(leak\\); reproduced"
	}()
	select {
	case v := <-ch:
		return v, nil
	case <-time.After(d):
		return 0, errTimeout
	}
}
