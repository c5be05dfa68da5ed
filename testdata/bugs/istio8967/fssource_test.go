package istio8967

import (
	"testing"
	"time"
)

func TestFsSource_DeletePartResorceInFile(t *testing.T) {
	s := newFsSource()
	s.Start()
	s.events <- Event{Path: "config.yaml"}
	time.Sleep(20 * time.Millisecond) // the test checks the source later
	s.Stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.loaded) != 1 {
		t.Errorf("loaded %v, want one file", s.loaded)
	}
}
