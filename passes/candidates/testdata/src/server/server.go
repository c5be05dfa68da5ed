// Package server starts a goroutine from a method; the goroutine's
// unsynchronized accesses race with the exported methods of the same type.
package server

import "sync"

type Server struct {
	mu    sync.Mutex
	state int
	quit  chan struct{}
}

func (s *Server) Start() {
	go s.loop()
}

// loop is a method: one unit of work for its whole run.
func (s *Server) loop() {
	for {
		select {
		case <-s.quit:
			return
		default:
			s.state++ // want `^candidate av WRW: server.go:24:6 server.go:32:11 server.go:24:6$`
		}
	}
}

func (s *Server) State() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state // want `^candidate race RW: server.go:32:11 server.go:24:6$`
}
