// Package kubernetes5316fixed is kubernetes5316 with the upstream fix of
// https://github.com/kubernetes/kubernetes/pull/5316: ch and errCh are
// buffered, so the goroutine's send never waits for the request.
package kubernetes5316fixed

import (
	"errors"
	"time"
)

var errTimeout = errors.New("request timed out")

func finishRequest(timeout time.Duration, fn func() (string, error)) (string, error) {
	ch := make(chan string, 1)
	errCh := make(chan error, 1)
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
