package critical

import (
	"fmt"
	"runtime"
)

// Section is a critical section built from a plain owner field (0 = free).
type Section struct {
	owner int
}

// Run runs body while goroutine id owns the section.
func (s *Section) Run(id int, body func()) {
	for s.owner != 0 { // want "data race on "
		runtime.Gosched()
	}
	s.owner = id // want "data race on " "atomicity violation on "
	body()
	if s.owner != id {
		panic(fmt.Sprintf("critical: goroutine %d found owner %d", id, s.owner))
	}
	s.owner = 0
}
