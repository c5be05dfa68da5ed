package depatomicfixed

import (
	"sync/atomic"

	"subjects/depatomicfixed/hits"
)

// Server serves requests and counts them.
type Server struct{ Requests hits.Counter }

// Serve serves one request and counts it.
func (s *Server) Serve() {
	atomic.AddInt64(&s.Requests.N, 1)
}
