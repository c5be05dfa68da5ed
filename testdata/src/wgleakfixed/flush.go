package wgleakfixed

import (
	"sync"
	"time"
)

type timeoutError struct{}

func (timeoutError) Error() string { return "flush: timed out" }

// Flush sends each item concurrently and waits at most d for the sends;
// it returns the first send's error.
func Flush(items []string, send func(string) error, d time.Duration) error {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for _, it := range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := send(it); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
			}
		}()
	}
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		mu.Lock()
		defer mu.Unlock()
		return first
	case <-time.After(d):
		return timeoutError{}
	}
}

var (
	tracked    sync.WaitGroup
	reportOnce sync.Once
	idle       = make(chan struct{}, 1)
)

// Track counts one more piece of work in progress.
func Track() {
	tracked.Add(1)
	reportOnce.Do(func() { go report() })
}

// Untrack counts a piece of work done.
func Untrack() { tracked.Done() }

func report() {
	tracked.Wait()
	idle <- struct{}{}
}
