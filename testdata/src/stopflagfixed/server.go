package stopflagfixed

import (
	"errors"
	"net"
	"sync"
	"time"
)

// Server serves packets from Conn until Shutdown, as miekg/dns's Server:
// started is its stop flag, set by Serve and cleared by Shutdown.
type Server struct {
	Conn    net.PacketConn
	Started func() // called once Serve has started

	lock     sync.RWMutex
	started  bool
	shutdown chan struct{}
	served   int
}

func (s *Server) isStarted() bool {
	s.lock.RLock()
	started := s.started
	s.lock.RUnlock()
	return started
}

// Serve serves until Shutdown, then returns nil.
func (s *Server) Serve() error {
	s.lock.Lock()
	if s.started {
		s.lock.Unlock()
		return errors.New("server already started")
	}
	s.shutdown = make(chan struct{})
	s.started = true
	s.lock.Unlock()
	defer close(s.shutdown)
	if s.Started != nil {
		s.Started()
	}
	buf := make([]byte, 512)
	for s.isStarted() {
		if err := s.read(buf); err != nil {
			if !s.isStarted() {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return err
		}
	}
	return nil
}

// read reads a packet, with a deadline while the server runs.
func (s *Server) read(buf []byte) error {
	s.lock.RLock()
	if s.started {
		s.Conn.SetReadDeadline(time.Now().Add(time.Second))
	}
	s.lock.RUnlock()
	if _, _, err := s.Conn.ReadFrom(buf); err != nil {
		return err
	}
	s.lock.Lock()
	s.served++
	s.lock.Unlock()
	return nil
}

// Shutdown stops Serve and waits for it to return.
func (s *Server) Shutdown() error {
	s.lock.Lock()
	if !s.started {
		s.lock.Unlock()
		return errors.New("server not started")
	}
	s.started = false
	s.Conn.SetReadDeadline(time.Unix(1, 0)) // unblock the read
	done := s.shutdown
	s.lock.Unlock()
	<-done
	return nil
}
