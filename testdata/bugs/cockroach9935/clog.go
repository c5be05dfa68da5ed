// Package cockroach9935 reduces cockroachdb/cockroach#9935
// (https://github.com/cockroachdb/cockroach/pull/9935, log: fix a
// deadlock when creating the log file fails).
//
// loggingT.outputLogEntry holds l.mu while it writes an entry; when the
// log file cannot be created it calls l.exit, which takes l.mu again:
// sync.Mutex is not reentrant, so the goroutine blocks on itself for ever
// (a double lock on the error path only).
//
// Upstream fix: the error path calls exitLocked, which expects l.mu to be
// held and does not lock it again.
package cockroach9935

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
			l.exit(err)
			l.mu.Unlock()
			return
		}
		l.file = []string{}
	}
	l.file = append(l.file, msg)
	l.mu.Unlock()
}

// exit records the error that stops logging.
func (l *loggingT) exit(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.exited = err
}
