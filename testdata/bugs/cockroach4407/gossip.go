// Package cockroach4407 reduces cockroachdb/cockroach#4407
// (https://github.com/cockroachdb/cockroach/pull/4407, gossip: start the
// sender worker in a task, to avoid a data race during shutdown).
//
// The gossip server's Gossip handler (one call per incoming stream)
// starts a sender worker with Stopper.RunWorker, which calls
// stop.Add(1) unconditionally; Stopper.Stop waits on the same WaitGroup.
// A stream that arrives while the node shuts down makes an Add that can
// follow the Wait (sync.WaitGroup's documented misuse, the data race the
// race detector reported). In the test the stream arrives well before
// the shutdown, so Stop waits for the worker; in the bad schedule Stop's
// Wait runs before the Add, returns at once, and the sender runs after
// Stop returned (the test fails: 1 senders ran after Stop returned).
//
// Upstream fix: Gossip starts the worker inside Stopper.RunTask, which
// refuses new tasks, under the stopper's mutex, once the stopper is
// draining.
package cockroach4407

import (
	"sync"
	"time"
)

// Stopper runs workers and tasks and stops them.
type Stopper struct {
	mu       sync.Mutex
	draining bool
	tasks    sync.WaitGroup
	stop     sync.WaitGroup
}

// RunWorker runs f in a goroutine that Stop waits for.
func (s *Stopper) RunWorker(f func()) {
	s.stop.Add(1)
	go func() {
		defer s.stop.Done()
		f()
	}()
}

// RunTask runs f unless the stopper is draining, and says whether it ran.
func (s *Stopper) RunTask(f func()) bool {
	s.mu.Lock()
	if s.draining {
		s.mu.Unlock()
		return false
	}
	s.tasks.Add(1)
	s.mu.Unlock()
	defer s.tasks.Done()
	f()
	return true
}

// Stop drains the tasks and waits for the workers.
func (s *Stopper) Stop() {
	s.mu.Lock()
	s.draining = true
	s.mu.Unlock()
	s.tasks.Wait()
	s.stop.Wait()
}

type server struct {
	stopper *Stopper
	mu      sync.Mutex
	stopped bool
	sent    int
	late    int // senders that ran after Stop returned
}

// Gossip serves one incoming gossip stream.
func (s *server) Gossip() {
	s.stopper.RunWorker(func() {
		s.gossipSender()
	})
}

func (s *server) gossipSender() {
	time.Sleep(10 * time.Millisecond) // send the first delta
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		s.late++
		return
	}
	s.sent++
}
