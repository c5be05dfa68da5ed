package wgleak

import (
	"errors"
	"sync"
	"time"
)

var errTimeout = errors.New("flush: timed out")

// Flush sends each item concurrently and waits at most d for the sends.
func Flush(items []string, send func(string) error, d time.Duration) error {
	var wg sync.WaitGroup
	for _, it := range items {
		wg.Add(1)
		go func() {
			if err := send(it); err != nil {
				return
			}
			wg.Done()
		}()
	}
	done := make(chan struct{})
	go func() {
		wg.Wait() // want "goroutine g[0-9.]+ blocked forever in WaitGroup\\.Wait at flush\\.go:25: its counter cannot reach zero: every goroutine that can call Done has exited \\(leak, observed in the recorded run\\); reproduced"
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-time.After(d):
		return errTimeout
	}
}
