package drvonclosefixed

import "sync"

// Session ends when closed, and then calls the callback registered with
// OnClose.
type Session struct {
	mu      sync.Mutex
	closed  bool
	done    chan struct{}
	onClose func()
}

// Open makes a session; it starts nothing, so that a callback registered
// before the session is shared races with nothing. A caller that wants it
// to expire registers first, then arranges the Close
// (time.AfterFunc(ttl, s.Close)).
func Open() *Session {
	return &Session{done: make(chan struct{})}
}

// OnClose registers a callback for closing.
func (s *Session) OnClose(h func()) {
	s.onClose = h
}

// Close ends the session and calls the callback, once.
func (s *Session) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.closed = true
	close(s.done)
	if s.onClose != nil {
		s.onClose()
	}
}

// Done is closed when the session ends.
func (s *Session) Done() <-chan struct{} { return s.done }
