package waitassign

import (
	"errors"
	"time"
)

var errTimeout = errors.New("fetch: deadline passed")

// Fetcher computes a value after a delay.
type Fetcher struct {
	delay   time.Duration
	compute func() int
}

// Fetch waits at most d for the value.
func (f *Fetcher) Fetch(d time.Duration) (int, error) {
	res := make(chan int)
	go func() {
		time.Sleep(f.delay)
		v := f.compute()

		res <- v // want "goroutine g[0-9.]+ blocked forever in chan send at fetch\\.go:23: its receiver returned at fetch\\.go:28 \\(leak\\); reproduced"
	}()
	var v int
	var err error
	select {
	case v = <-res:
	case <-time.After(d):
		err = errTimeout
	}
	return v, err
}
