package structcopy

import "sync"

// Limits are a server's rate limits.
type Limits struct {
	Max, Burst int
}

// Server serves with limits that can change while it runs.
type Server struct {
	mu     sync.Mutex
	limits Limits
}

// SetBurst changes the burst limit.
func (s *Server) SetBurst(b int) {
	s.mu.Lock()
	s.limits.Burst = b // want "data race on Limits\\.Burst"
	s.mu.Unlock()
}

// Limits returns the current limits.
func (s *Server) Limits() Limits {
	return s.limits
}
