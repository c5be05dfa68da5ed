// Package istio8967 reduces istio/istio#8967
// (https://github.com/istio/istio/pull/8967, [galley] fix data race;
// issue #8966: data race in istio.io/istio/galley/pkg/fs).
//
// fsSource.Start runs a goroutine that handles file-watch events until
// the source's donec closes, reading the field s.donec on each round of
// its loop. Stop closes donec and then sets s.donec to nil. Stop's write
// and the goroutine's read are not ordered: a data race (-race reported
// it in TestFsSource_DeletePartResorceInFile). A goroutine that reads the
// nil channel after the write would block in its select for ever.
//
// Upstream fix: Stop only closes donec; nothing writes the field after
// Start.
package istio8967

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
	s.donec = nil
}
