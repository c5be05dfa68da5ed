package methodvaluefixed

import (
	"strings"
	"sync"
)

// Handler transforms requests.
type Handler struct{ upper bool }

// Handle serves one request.
func (h *Handler) Handle(req string) string {
	if h.upper {
		return strings.ToUpper(req)
	}
	return req
}

// Server dispatches to a handler that can be replaced while it runs.
type Server struct {
	mu sync.Mutex
	h  *Handler
}

// SetHandler replaces the handler.
func (s *Server) SetHandler(h *Handler) {
	s.mu.Lock()
	s.h = h
	s.mu.Unlock()
}

// Dispatch returns the function that serves the next request.
func (s *Server) Dispatch() func(string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.h.Handle
}
