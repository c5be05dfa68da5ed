package selectsendfixed

import "sync"

// Dispatcher hands jobs to workers, the fast lane first.
type Dispatcher struct {
	fast, slow chan int
	mu         sync.Mutex
	sent       int // jobs handed out; guarded by mu
}

// New returns a dispatcher with unbuffered lanes.
func New() *Dispatcher { return &Dispatcher{fast: make(chan int), slow: make(chan int)} }

// Dispatch hands job j to whichever lane takes it and counts it.
func (d *Dispatcher) Dispatch(j int) {
	select {
	case d.fast <- j:
	case d.slow <- j:
	}
	d.mu.Lock()
	d.sent++
	d.mu.Unlock()
}

// Sent returns the number of jobs handed out.
func (d *Dispatcher) Sent() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.sent
}
