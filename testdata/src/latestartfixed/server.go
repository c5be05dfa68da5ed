package latestartfixed

import "sync"

// Server counts the requests it handles and audits each one in a goroutine
// of its own, so that handling does not wait for the audit.
type Server struct {
	mu      sync.Mutex
	served  int
	audited []string
}

// Handle serves req and starts its audit.
func (s *Server) Handle(req string) {
	s.mu.Lock()
	s.served++
	s.mu.Unlock()
	go s.audit(req)
}

func (s *Server) audit(req string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.audited = append(s.audited, req)
}

// Audited returns how many requests have been audited.
func (s *Server) Audited() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.audited)
}
