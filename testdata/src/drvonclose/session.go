package drvonclose

import (
	"sync"
	"time"
)

// Session ends after its time to live, or when closed, and then calls
// the callback registered with OnClose.
type Session struct {
	mu      sync.Mutex
	closed  bool
	done    chan struct{}
	onClose func()
}

// Open starts a session and the goroutine that ends it after ttl: it runs
// before the caller can register a callback.
func Open(ttl time.Duration) *Session {
	s := &Session{done: make(chan struct{})}
	go s.expire(ttl)
	return s
}

func (s *Session) expire(ttl time.Duration) {
	time.Sleep(ttl)
	s.Close()
}

// OnClose registers a callback for closing.
func (s *Session) OnClose(h func()) {
	s.onClose = h // want "data race.*on Session\\.onClose.*found by a generated driver calling Close and OnClose"
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
