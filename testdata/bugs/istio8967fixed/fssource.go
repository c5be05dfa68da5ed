// Package istio8967fixed is istio8967 with the fix of
// https://github.com/istio/istio/pull/8967: Stop only closes donec and
// does not write the field the watch goroutine reads.
package istio8967fixed

import "sync"

// Event is a change to a watched file.
type Event struct{ Path string }

type fsSource struct {
	donec  chan struct{}
	events chan Event

	mu     sync.Mutex
	loaded []string
}

func newFsSource() *fsSource {
	return &fsSource{donec: make(chan struct{}), events: make(chan Event)}
}

func (s *fsSource) Start() {
	go func() {
		for {
			select {
			case <-s.donec:
				return
			case e := <-s.events:
				s.reload(e.Path)
			}
		}
	}()
}

func (s *fsSource) reload(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.loaded = append(s.loaded, path)
}

func (s *fsSource) Stop() {
	close(s.donec)
}
