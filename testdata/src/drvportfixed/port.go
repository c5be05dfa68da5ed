package drvportfixed

import (
	"errors"
	"sync"
)

// ErrOpen is returned by Open on a socket already listening.
var ErrOpen = errors.New("drvportfixed: already open")

// ErrInUse is returned by Open when another listener holds the address.
var ErrInUse = errors.New("drvportfixed: bind: address already in use")

var (
	mu    sync.Mutex
	bound = map[string]bool{} // the addresses listened on, as the machine's ports
)

type listener struct{ addr string }

func listen(addr string) (*listener, error) {
	mu.Lock()
	defer mu.Unlock()
	if bound[addr] {
		return nil, ErrInUse
	}
	bound[addr] = true
	return &listener{addr}, nil
}

func (l *listener) close() {
	mu.Lock()
	defer mu.Unlock()
	delete(bound, l.addr)
}

// Socket listens on a fixed address. It is safe for concurrent use.
type Socket struct {
	mu          sync.Mutex
	addr        string
	l           *listener
	interrupted bool
}

// NewSocket returns a socket for addr, not listening.
func NewSocket(addr string) *Socket { return &Socket{addr: addr} }

// Open listens, or returns ErrOpen if the socket listens already. A
// failed bind leaves the socket closed.
func (s *Socket) Open() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.l != nil {
		return ErrOpen
	}
	l, err := listen(s.addr)
	if err != nil {
		s.close()
		return err
	}
	s.l = l
	return nil
}

// Close stops listening.
func (s *Socket) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.close()
}

func (s *Socket) close() {
	if s.l != nil {
		s.l.close()
		s.l = nil
	}
}

// Interrupt closes the socket for good.
func (s *Socket) Interrupt() {
	s.mu.Lock()
	s.interrupted = true
	s.mu.Unlock()
	s.Close()
}

// IsListening reports whether the socket listens.
func (s *Socket) IsListening() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.l != nil
}
