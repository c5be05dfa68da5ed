// Package cockroach4407fixed is cockroach4407 with the upstream fix of
// https://github.com/cockroachdb/cockroach/pull/4407: Gossip starts its
// sender worker inside a task, which the stopper refuses once draining.
package cockroach4407fixed

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
	// Starting the worker in a task: no worker starts once Stop drains.
	s.stopper.RunTask(func() {
		s.stopper.RunWorker(func() {
			s.gossipSender()
		})
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
