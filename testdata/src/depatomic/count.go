package depatomic

import (
	"sync/atomic"

	"subjects/depatomic/hits"
)

// Server serves requests and counts them.
type Server struct{ Requests hits.Counter }

// Serve serves one request and counts it.
func (s *Server) Serve() {
	atomic.AddInt64(&s.Requests.N, 1) // want "data race on Counter\\.N"
}
