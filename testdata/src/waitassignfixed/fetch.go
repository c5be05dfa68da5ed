package waitassignfixed

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
	res := make(chan int, 1) // the fetcher never waits for a receiver
	go func() {
		time.Sleep(f.delay)
		v := f.compute()

		res <- v
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
