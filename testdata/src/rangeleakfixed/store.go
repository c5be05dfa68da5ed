package rangeleakfixed

import (
	"errors"
	"sync"
)

var errEmpty = errors.New("store: empty record")

// Store writes recs to sink, in order, from a writer goroutine, and
// returns an error for an empty record.
func Store(recs []string, sink func(string)) error {
	ch := make(chan string)
	done := make(chan struct{})
	go func() {
		for r := range ch {
			sink(r)
		}
		close(done)
	}()
	defer func() {
		close(ch)
		<-done
	}()
	for _, r := range recs {
		if r == "" {
			return errEmpty
		}
		ch <- r
	}
	return nil
}

var (
	lines     = make(chan string)
	startOnce sync.Once
	logged    []string
	loggedMu  sync.Mutex
)

func logger() {
	for l := range lines {
		loggedMu.Lock()
		logged = append(logged, l)
		loggedMu.Unlock()
	}
}

// Audit has the logger goroutine, a daemon, record l.
func Audit(l string) {
	startOnce.Do(func() { go logger() })
	lines <- l
}

// Logged returns how many lines the logger recorded.
func Logged() int {
	loggedMu.Lock()
	defer loggedMu.Unlock()
	return len(logged)
}
