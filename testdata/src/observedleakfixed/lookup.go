package observedleakfixed

import (
	"errors"
	"sync"
	"time"
)

var errTimeout = errors.New("lookup: timed out")

// Lookup asks resolve for name's address and waits for it at most d.
func Lookup(resolve func(string) string, name string, d time.Duration) (string, error) {
	ch := make(chan string, 1)
	go func() {
		ch <- resolve(name)
	}()
	select {
	case addr := <-ch:
		return addr, nil
	case <-time.After(d):
		return "", errTimeout
	}
}

// A resolver that runs for the life of the process: Warm hands it a name
// on a package-level channel. The goroutine is a daemon, started once,
// and any later call reaches it through requests.
var (
	requests  = make(chan string)
	startOnce sync.Once
	warmed    = map[string]bool{}
	warmedMu  sync.Mutex
)

// Warm has the resolver look name up ahead of time.
func Warm(name string) {
	startOnce.Do(func() { go serve() })
	requests <- name
}

func serve() {
	for {
		name := <-requests
		warmedMu.Lock()
		warmed[name] = true
		warmedMu.Unlock()
	}
}

// Warmed reports whether Warm has had name looked up.
func Warmed(name string) bool {
	warmedMu.Lock()
	defer warmedMu.Unlock()
	return warmed[name]
}
