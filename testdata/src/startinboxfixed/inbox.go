package startinboxfixed

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
	mu, run sync.Mutex // run: held by the process goroutine throughout
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

// process hands the queue to the handler until it finds it empty, and goes
// idle under mu, which Send appends under; see the package doc on run.
func (in *Inbox) process() {
	in.run.Lock()
	defer in.run.Unlock()
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

// Start sets the handler and processes what was queued: through
// "starting", so that a Send between its CAS and its swap to idle fails
// its own CAS and leaves its message to Start's schedule, and no second
// process goroutine starts.
func (in *Inbox) Start(h func(int)) {
	if atomic.CompareAndSwapInt32(&in.status, stopped, starting) {
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
