package drainqfixed

import "sync"

// Server answers the requests queued on it, first come first served.
type Server struct {
	mu      sync.Mutex
	queue   []int
	answers map[int]int
}

// Call queues req, serves the queue until it is empty, and returns the
// answer to req, whichever caller served it.
func (s *Server) Call(req int) int {
	s.mu.Lock()
	s.queue = append(s.queue, req)
	s.mu.Unlock()
	for s.serve() {
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.answers[req]
}

// serve takes the head of the queue and answers it, if there is one.
func (s *Server) serve() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.queue) == 0 {
		return false
	}
	req := s.queue[0]
	s.queue = s.queue[1:]
	s.answers[req] = req * 2
	return true
}
