// Package cockroach28903fixed is cockroach28903 with the upstream fix of
// https://github.com/cockroachdb/cockroach/pull/28903: the transport starts
// its worker with RunAsyncTask, which refuses work once Stop began.
package cockroach28903fixed

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
	_ = c.stopper.RunAsyncTask(func() {
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
