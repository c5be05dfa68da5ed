package startinbox

import (
	"sync"
	"sync/atomic"
)

// The states of an inbox's processing (anthdm/hollywood v1.0.5's
// procStatus).
const (
	stopped int32 = iota
	starting
	idle
	running
)

// Inbox queues messages and hands them to its handler on one process
// goroutine at a time, started when a message finds the inbox idle.
type Inbox struct {
	mu      sync.Mutex
	queue   []int
	handler atomic.Pointer[func(int)]
	status  int32
	busy    atomic.Int32 // process goroutines running
	overlap atomic.Bool  // two ran at once
}

// Send queues m and schedules its processing.
func (in *Inbox) Send(m int) {
	in.mu.Lock()
	in.queue = append(in.queue, m)
	in.mu.Unlock()
	in.schedule()
}

// schedule starts a process goroutine if the inbox is idle; otherwise
// the running one, or Start, takes the queue.
func (in *Inbox) schedule() {
	if atomic.CompareAndSwapInt32(&in.status, idle, running) {
		go in.process()
	}
}

// process hands the queued messages to the handler until it finds the
// queue empty, and goes idle (unless stopped meanwhile) under the lock
// that Send appends under: a message appended after that finds the
// inbox idle.
func (in *Inbox) process() {
	if in.busy.Add(1) > 1 {
		in.overlap.Store(true)
	}
	h := *in.handler.Load()
	for {
		in.mu.Lock()
		q := in.queue
		in.queue = nil
		if len(q) == 0 {
			in.busy.Add(-1)                                       // done before another can start
			atomic.CompareAndSwapInt32(&in.status, running, idle) // not over a Stop
			in.mu.Unlock()
			return
		}
		in.mu.Unlock()
		for _, m := range q {
			h(m)
		}
	}
}

// Start sets the handler and processes what was queued. Its first CAS
// moves the status straight to idle: a Send between it and the swap
// starts a process goroutine, and the swap lets Start's own schedule
// start a second one.
func (in *Inbox) Start(h func(int)) {
	if atomic.CompareAndSwapInt32(&in.status, stopped, idle) { // want "atomicity violation on Inbox\\.status"
		in.handler.Store(&h)
		atomic.SwapInt32(&in.status, idle)
		in.schedule()
	}
}

// Stop stops the processing; queued messages wait for the next Start.
func (in *Inbox) Stop() {
	atomic.StoreInt32(&in.status, stopped)
}

// Overlapped reports whether two process goroutines ever ran at once.
func (in *Inbox) Overlapped() bool { return in.overlap.Load() }
