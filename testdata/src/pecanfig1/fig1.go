package pecanfig1

import "time"

// State holds the shared variables of Figure 1.
type State struct{ w, x, y, z int }

// First is thread 1 of Figure 1.
func (s *State) First() {
	s.w = 1        // line 1
	r := s.x + s.z // line 2 // want "data race on State\\.x" "data race on State\\.z" "atomic-set-serializability violation on "
	_ = r
	if s.y == 0 { // line 3 // want "data race on State\\.y"
		panic("ERROR") // line 4
	}
}

// Second is thread 2 of Figure 1.
func (s *State) Second() {
	s.x = 1 // line 5
	s.z = 1 // line 6
	s.y = 0 // line 7
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
