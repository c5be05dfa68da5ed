package observedleak

import (
	"errors"
	"time"
)

var errTimeout = errors.New("lookup: timed out")

// Lookup asks resolve for name's address and waits for it at most d.
func Lookup(resolve func(string) string, name string, d time.Duration) (string, error) {
	ch := make(chan string)
	go func() {
		ch <- resolve(name) // want "goroutine g[0-9.]+ blocked forever in chan send at lookup\\.go:14: its receiver returned at lookup\\.go:19 \\(leak, observed in the recorded run\\); reproduced"
	}()
	select {
	case addr := <-ch:
		return addr, nil
	case <-time.After(d):
		return "", errTimeout
	}
}
