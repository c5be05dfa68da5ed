package logout

import (
	"net"
	"sync"
)

// Session is a backend session; Logout counts its logouts.
type Session struct {
	mu      sync.Mutex
	logouts int
}

// Logout ends the session.
func (s *Session) Logout() {
	s.mu.Lock()
	s.logouts++
	s.mu.Unlock()
}

// Logouts returns how many times the session was logged out.
func (s *Session) Logouts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logouts
}

// Line is a connection that holds its client's session.
type Line struct {
	mu   sync.Mutex
	conn net.Conn
	sess *Session
}

// Login stores the client's session.
func (l *Line) Login(s *Session) {
	l.mu.Lock()
	l.sess = s // want "atomicity violation on "
	l.mu.Unlock()
}

// Close logs the session out, forgets it and closes the connection.
func (l *Line) Close() error {
	l.mu.Lock()
	s := l.sess
	l.mu.Unlock()
	if s != nil {
		s.Logout()
	}
	l.mu.Lock()
	l.sess = nil
	l.mu.Unlock()
	return l.conn.Close()
}

// Server serves lines.
type Server struct{}

// Serve is a line's goroutine: the client logs in, is told so, and
// talks until it quits or the line is closed; then Serve closes it.
func (srv *Server) Serve(l *Line, s *Session) {
	l.Login(s)
	l.conn.Write([]byte("ok\n"))
	buf := make([]byte, 64)
	for {
		n, err := l.conn.Read(buf)
		if err != nil || string(buf[:n]) == "quit\n" {
			break
		}
	}
	l.Close()
}
