package criticalfixed

import (
	"fmt"
	"sync"
)

// Section is a critical section; owner records who is inside (0 = nobody).
type Section struct {
	mu    sync.Mutex
	owner int
}

// Run runs body while goroutine id owns the section.
func (s *Section) Run(id int, body func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.owner = id
	body()
	if s.owner != id {
		panic(fmt.Sprintf("critical: goroutine %d found owner %d", id, s.owner))
	}
	s.owner = 0
}
