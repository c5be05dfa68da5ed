package notifyhint

import "sync"

// Expirer keeps a queue of deadlines that its loop drains; adding to an
// empty queue wakes the loop.
type Expirer struct {
	mu       sync.Mutex
	queue    []int
	notified bool // a wake-up is pending
	wake     chan int
	drained  int
}

// New returns an Expirer; Run drains it.
func New() *Expirer { return &Expirer{wake: make(chan int, 1)} }

// Add queues v, and wakes the loop when v is the queue's first entry.
func (e *Expirer) Add(v int) {
	e.mu.Lock()
	e.queue = append(e.queue, v) // want "atomicity violation on Expirer\\.queue"
	first := e.queue[0]
	e.mu.Unlock()
	if first == v {
		e.notify()
	}
}

// notify wakes the loop unless a wake-up is pending, handing it the
// queue's first deadline.
func (e *Expirer) notify() {
	e.mu.Lock()
	if e.notified {
		e.mu.Unlock()
		return
	}
	e.notified = true
	next := e.queue[0]
	e.mu.Unlock()
	e.wake <- next
}

// Run drains the queue each time it is woken, until stop is closed.
func (e *Expirer) Run(stop chan struct{}) {
	for {
		e.mu.Lock()
		e.notified = false
		for len(e.queue) > 0 {
			e.queue = e.queue[1:]
			e.drained++
		}
		e.mu.Unlock()
		select {
		case <-e.wake:
		case <-stop:
			return
		}
	}
}

// Drained returns how many entries the loop has drained.
func (e *Expirer) Drained() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.drained
}
