package selectleakfixed

import (
	"errors"
	"time"
)

var errTimeout = errors.New("fetch: timed out")

// Fetch computes a value in a goroutine and waits for it at most d.
func Fetch(compute func() int, d time.Duration) (int, error) {
	ch := make(chan int, 1) // the sender never waits for a receiver
	go func() {
		ch <- compute()
	}()
	select {
	case v := <-ch:
		return v, nil
	case <-time.After(d):
		return 0, errTimeout
	}
}
