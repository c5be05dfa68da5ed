package plainleakfixed

import (
	"sync"
	"sync/atomic"
)

var (
	kick     = make(chan struct{})
	kickOnce sync.Once
	flushes  atomic.Int32
)

// flusher is a daemon: it flushes once per kick, for the life of the
// process.
func flusher() {
	for {
		<-kick
		flushes.Add(1)
	}
}

// Kick has the flusher flush once.
func Kick() {
	kickOnce.Do(func() { go flusher() })
	kick <- struct{}{}
}
