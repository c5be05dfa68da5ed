package lockleakfixed

import (
	"errors"
	"sync"
	"time"
)

var errTimeout = errors.New("gather: timed out")

// Gather collects the items of every source, read concurrently, and
// returns the first source's error; it waits at most d.
func Gather(sources []func() ([]string, error), d time.Duration) ([]string, error) {
	var mu sync.Mutex
	var all []string
	var first error
	done := make(chan struct{}, len(sources))
	for _, src := range sources {
		go func() {
			items, err := src()
			mu.Lock()
			if err != nil {
				first = err
				mu.Unlock()
				done <- struct{}{}
				return
			}
			all = append(all, items...)
			mu.Unlock()
			done <- struct{}{}
		}()
	}
	timeout := time.After(d)
	for range sources {
		select {
		case <-done:
		case <-timeout:
			return nil, errTimeout
		}
	}
	mu.Lock()
	defer mu.Unlock()
	return all, first
}
