package stopflag

import (
	"errors"
	"net"
	"sync"
	"time"
)

// Server serves packets from its connection until Shutdown, as
// miekg/dns's Server: started is its stop flag, set by Serve and cleared
// by Shutdown, which also lets go of the connection.
type Server struct {
	Started func() // called once Serve has started

	lock     sync.RWMutex
	conn     net.PacketConn
	started  bool
	shutdown chan struct{}
	served   int
}

func (s *Server) isStarted() bool {
	s.lock.RLock()
	started := s.started // want "atomicity violation on Server\\.started.*panic: runtime error: invalid memory address or nil pointer dereference"
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

// New returns a server for conn.
func New(conn net.PacketConn, started func()) *Server {
	return &Server{conn: conn, Started: started}
}

// read reads a packet, with a deadline while the server runs.
func (s *Server) read(buf []byte) error {
	s.lock.RLock()
	conn := s.conn
	if s.started {
		conn.SetReadDeadline(time.Now().Add(time.Second))
	}
	s.lock.RUnlock()
	if _, _, err := conn.ReadFrom(buf); err != nil {
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
	s.conn.SetReadDeadline(time.Unix(1, 0)) // unblock the read
	s.conn = nil
	done := s.shutdown
	s.lock.Unlock()
	<-done
	return nil
}
