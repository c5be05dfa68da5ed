package afterfuncfixed

import "time"

// Session expires after its lifetime.
type Session struct {
	user  string
	done  chan struct{}
	timer *time.Timer
}

// Open starts a session of user that expires after d.
func Open(user string, d time.Duration) *Session {
	s := &Session{user: user, done: make(chan struct{})}
	s.timer = time.AfterFunc(d, func() {
		close(s.done)
	})
	return s
}

// Expired reports whether the session's lifetime is over.
func (s *Session) Expired() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// Wait returns when the session has expired.
func (s *Session) Wait() { <-s.done }
