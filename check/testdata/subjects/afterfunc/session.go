package afterfunc

import "time"

// Session expires after its lifetime.
type Session struct {
	user    string
	expired bool
	timer   *time.Timer
}

// Open starts a session of user that expires after d.
func Open(user string, d time.Duration) *Session {
	s := &Session{user: user}
	s.timer = time.AfterFunc(d, func() {
		s.expired = true // want "data race on Session\\.expired"
	})
	return s
}

// Expired reports whether the session's lifetime is over.
func (s *Session) Expired() bool {
	return s.expired
}
