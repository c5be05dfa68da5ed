package drainq

import "sync"

// Server answers the requests queued on it, first come first served.
type Server struct {
	mu    sync.Mutex
	queue []int
}

// Call queues req and returns the answer to the request at the head of
// the queue, which it takes for its own.
func (s *Server) Call(req int) int {
	s.mu.Lock()
	s.queue = append(s.queue, req) // want "atomicity violation on Server.queue: .*stale read-back"
	s.mu.Unlock()
	return s.answer()
}

// answer takes the head of the queue and answers it.
func (s *Server) answer() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.queue) == 0 {
		return -1
	}
	req := s.queue[0]
	s.queue = s.queue[1:]
	return req * 2
}
