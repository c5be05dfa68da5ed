// Package cockroach28903 reduces cockroachdb/cockroach#28903
// (https://github.com/cockroachdb/cockroach/pull/28903,
// closedts/transport: avoid race when using stopper.RunWorker; the race
// of https://github.com/cockroachdb/cockroach/issues/28755).
//
// Stopper.RunWorker calls stop.Add(1) unconditionally. The transport
// starts a worker from code that can run while the server shuts down,
// concurrently with Stopper.Stop, which waits on the same WaitGroup: an
// Add that can follow the Wait (sync.WaitGroup's documented misuse, a
// data race the race detector reports), and a worker that runs after Stop
// returned. The test requests a client from a goroutine while it stops
// the stopper, with nothing ordering the two (as in the server); the
// worker takes a while to dial, so in an ordinary run Stop waits for it.
// In the bad schedule Stop's Wait runs before RunWorker's Add, returns at
// once, and the worker runs after Stop returned (the test fails: 1
// workers ran after Stop returned).
//
// Upstream fix: the transport uses RunAsyncTask, which refuses new work
// under the stopper's mutex once the stopper is quiescing.
package cockroach28903

import (
	"errors"
	"sync"
	"time"
)

var errUnavailable = errors.New("node unavailable; try another peer")

// Stopper runs workers and tasks and stops them.
type Stopper struct {
	mu        sync.Mutex
	quiescing bool
	stop      sync.WaitGroup
}

// RunWorker runs f in a goroutine that Stop waits for.
func (s *Stopper) RunWorker(f func()) {
	s.stop.Add(1)
	go func() {
		defer s.stop.Done()
		f()
	}()
}

// RunAsyncTask runs f unless the stopper is quiescing.
func (s *Stopper) RunAsyncTask(f func()) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.quiescing {
		return errUnavailable
	}
	s.stop.Add(1)
	go func() {
		defer s.stop.Done()
		f()
	}()
	return nil
}

// Stop quiesces the stopper and waits for its workers.
func (s *Stopper) Stop() {
	s.mu.Lock()
	s.quiescing = true
	s.mu.Unlock()
	s.stop.Wait()
}

// Clients is the closed timestamp transport's client registry.
type Clients struct {
	stopper *Stopper
	mu      sync.Mutex
	started int
	stopped bool
	late    int // workers that ran after Stop returned
}

// EnsureClient starts the connection to a node.
func (c *Clients) EnsureClient() {
	c.stopper.RunWorker(func() {
		time.Sleep(10 * time.Millisecond) // dial the node
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.stopped {
			c.late++
			return
		}
		c.started++
	})
}
