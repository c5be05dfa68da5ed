package initcheckfixed

import (
	"errors"
	"sync"
)

// Server is a raft server's life cycle: stopped, initialized, follower.
type Server struct {
	startMu sync.Mutex // one Start at a time
	mu      sync.RWMutex
	state   string
}

// NewServer returns a stopped server.
func NewServer() *Server { return &Server{state: "stopped"} }

// Running says whether the server has started: neither stopped nor
// only initialized.
func (s *Server) Running() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.state != "stopped" && s.state != "initialized"
}

func (s *Server) setState(st string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.state = st
}

// init readies a stopped server.
func (s *Server) init() error {
	if s.Running() {
		return errors.New("already running")
	}
	s.mu.Lock()
	s.state = "initialized"
	s.mu.Unlock()
	return nil
}

// Start initializes the server and makes it a follower.
func (s *Server) Start() error {
	s.startMu.Lock()
	defer s.startMu.Unlock()
	if err := s.init(); err != nil {
		return err
	}
	s.setState("follower")
	return nil
}

// Vote answers a peer's vote request: a server that is not running
// refuses it.
func (s *Server) Vote() error {
	if !s.Running() {
		return errors.New("not running")
	}
	return nil
}
