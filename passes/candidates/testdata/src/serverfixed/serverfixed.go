// Package serverfixed is server with the goroutine locking around each
// update; its body is a closure, so each critical section is its own unit.
package serverfixed

import "sync"

type Server struct {
	mu    sync.Mutex
	state int
	quit  chan struct{}
}

func (s *Server) Start() {
	go func() {
		for {
			select {
			case <-s.quit:
				return
			default:
				s.mu.Lock()
				s.state++
				s.mu.Unlock()
			}
		}
	}()
}

func (s *Server) State() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

// Sum holds the lock across its whole loop.
func (s *Server) Sum(xs []int) {
	s.mu.Lock()
	for _, x := range xs {
		s.state += x
	}
	s.mu.Unlock()
}
