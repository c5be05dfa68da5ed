package stopcleanup

import (
	"sync"
	"time"
)

type Store struct {
	mu      sync.Mutex
	expires map[string]time.Time
	stop    chan bool
}

func New(interval time.Duration) *Store {
	s := &Store{expires: map[string]time.Time{}}
	go s.cleanup(interval)
	return s
}

func (s *Store) cleanup(interval time.Duration) {
	s.stop = make(chan bool) // want "data race on Store\\.stop"
	t := time.NewTicker(interval)
	for {
		select {
		case <-t.C:
			s.expire()
		case <-s.stop:
			t.Stop()
			return
		}
	}
}

func (s *Store) Stop() {
	if s.stop != nil {
		s.stop <- true
	}
}

func (s *Store) Put(key string, at time.Time) {
	s.mu.Lock()
	s.expires[key] = at
	s.mu.Unlock()
}

func (s *Store) Has(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.expires[key]
	return ok
}

func (s *Store) expire() {
	now := time.Now()
	s.mu.Lock()
	for k, at := range s.expires {
		if now.After(at) {
			delete(s.expires, k)
		}
	}
	s.mu.Unlock()
}
