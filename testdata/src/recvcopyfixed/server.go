package recvcopyfixed

import (
	"fmt"
	"sync"
)

// Settings are a server's tunables.
type Settings struct {
	Name  string
	Level int
}

// Summary describes the settings.
func (c Settings) Summary() string { return fmt.Sprintf("%s:%d", c.Name, c.Level) }

// Server serves with settings that can change while it runs.
type Server struct {
	mu sync.Mutex
	*Settings
}

// SetLevel changes the level.
func (s *Server) SetLevel(l int) {
	s.mu.Lock()
	s.Level = l
	s.mu.Unlock()
}

// Describe returns the summary of the current settings.
func (s *Server) Describe() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.Summary()
}
