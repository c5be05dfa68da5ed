// Package cockroach9935fixed is cockroach9935 with the upstream fix of
// https://github.com/cockroachdb/cockroach/pull/9935: the error path calls
// exitLocked, which runs with l.mu already held.
package cockroach9935fixed

import (
	"errors"
	"sync"
)

type loggingT struct {
	mu       sync.Mutex
	file     []string
	failNext bool // createFile fails (disk full)
	exited   error
}

func (l *loggingT) createFile() error {
	if l.failNext {
		return errors.New("log: cannot create log: no space left on device")
	}
	return nil
}

func (l *loggingT) outputLogEntry(msg string) {
	l.mu.Lock()
	if l.file == nil {
		if err := l.createFile(); err != nil {
			l.exitLocked(err)
			l.mu.Unlock()
			return
		}
		l.file = []string{}
	}
	l.file = append(l.file, msg)
	l.mu.Unlock()
}

// exitLocked records the error that stops logging; l.mu is held.
func (l *loggingT) exitLocked(err error) {
	l.exited = err
}
