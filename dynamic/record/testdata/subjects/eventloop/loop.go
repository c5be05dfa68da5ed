package eventloop

import "sync"

// Applying is the value Current shows while a value is being applied.
const Applying = -1

// Loop applies the values sent to it, one at a time, until stopped.
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
			l.set(Applying)
			l.set(v)
		case <-l.quit:
			return
		}
	}
}

func (l *Loop) set(v int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.cur = v // want "atomicity violation on Loop\\.cur"
}

// Send hands v to the loop.
func (l *Loop) Send(v int) { l.in <- v }

// Stop ends Run.
func (l *Loop) Stop() { close(l.quit) }

// Current returns the value applied last.
func (l *Loop) Current() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cur
}
