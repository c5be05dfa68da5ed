package reflectset

import (
	"reflect"
	"sync"
)

// Config is a server's configuration.
type Config struct {
	Name    string
	Timeout int
}

// Store holds a configuration that can change while the server runs.
type Store struct {
	mu  sync.Mutex
	cfg Config
}

// Set sets the field named field to v.
func (s *Store) Set(field string, v any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := reflect.ValueOf(&s.cfg).Elem().FieldByName(field)
	// The variable is named after its first recorded access, which depends
	// on the schedule of the recorded run: either name is the same race.
	f.Set(reflect.ValueOf(v)) // want "data race on (reflect\\.Value_target|Config\\.Timeout)"
}

// Timeout returns the configured timeout.
func (s *Store) Timeout() int {
	return s.cfg.Timeout
}
