// Package kubernetes5316 reduces kubernetes/kubernetes#5316
// (https://github.com/kubernetes/kubernetes/pull/5316, apiserver: fix a
// goroutine leak in finishRequest). It is Figure 1 of Tu et al.,
// "Understanding Real-World Concurrency Bugs in Go" (ASPLOS 2019).
//
// finishRequest runs fn in a goroutine that sends its result on an
// unbuffered channel (ch or errCh) and selects on the two channels and a
// timeout. When the timeout wins, nobody ever receives, and the goroutine
// stays blocked on its send for ever (a leak per timed-out request).
//
// Upstream fix: both channels get a buffer of one, so the send completes
// whether or not the request still waits.
package kubernetes5316

import (
	"errors"
	"time"
)

var errTimeout = errors.New("request timed out")

func finishRequest(timeout time.Duration, fn func() (string, error)) (string, error) {
	ch := make(chan string)
	errCh := make(chan error)
	go func() {
		if result, err := fn(); err != nil {
			errCh <- err
		} else {
			ch <- result
		}
	}()

	select {
	case result := <-ch:
		return result, nil
	case err := <-errCh:
		return "", err
	case <-time.After(timeout):
		return "", errTimeout
	}
}
