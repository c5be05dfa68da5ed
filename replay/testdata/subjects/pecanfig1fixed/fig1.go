package pecanfig1fixed

import (
	"sync"
	"time"
)

// State holds the shared variables of Figure 1, now guarded by mu.
type State struct {
	mu         sync.Mutex
	w, x, y, z int
}

// First is thread 1 of Figure 1; it runs atomically.
func (s *State) First() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.w = 1
	r := s.x + s.z
	_ = r
	if s.y == 0 && s.x == 0 {
		panic("ERROR")
	}
}

// Second is thread 2 of Figure 1; it runs atomically.
func (s *State) Second() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.x = 1
	s.z = 1
	s.y = 0
}

// Run runs both threads; the second starts a little later.
func Run() {
	s := &State{y: 1}
	done := make(chan bool)
	go func() { s.First(); done <- true }()
	go func() { time.Sleep(5 * time.Millisecond); s.Second(); done <- true }()
	<-done
	<-done
}
