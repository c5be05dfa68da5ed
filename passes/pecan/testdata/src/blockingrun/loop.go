// Package blockingrun has an event loop whose Run serves until Stop, and
// whose test calls Run on one goroutine only. The generated driver for the
// candidate pair Run/Run calls Run one after the other first: the first
// call never returns. The driver gives up after its bound and skips,
// noting why, instead of holding the recording until its timeout
// (minutes). Nothing should be reported.
package blockingrun

import "sync"

// Loop applies the values sent to it until stopped.
type Loop struct {
	in   chan int
	quit chan struct{}
	mu   sync.Mutex
	cur  int
}

// New returns a loop; run it with Run.
func New() *Loop { return &Loop{in: make(chan int), quit: make(chan struct{})} }

// Run applies the values sent with Send until Stop.
func (l *Loop) Run() {
	for {
		select {
		case v := <-l.in:
			l.mu.Lock()
			l.cur = v
			l.mu.Unlock()
		case <-l.quit:
			return
		}
	}
}

// Send hands v to the loop.
func (l *Loop) Send(v int) { l.in <- v }

// Stop ends Run.
func (l *Loop) Stop() { close(l.quit) }
