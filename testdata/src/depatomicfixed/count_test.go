package depatomicfixed

import (
	"testing"
	"time"
)

func TestServe(t *testing.T) {
	var s Server
	done := make(chan bool)
	go func() {
		s.Serve()
		done <- true
	}()
	time.Sleep(5 * time.Millisecond)
	if n := s.Requests.Hits(); n != 1 {
		t.Errorf("requests = %d, want 1", n)
	}
	<-done
}
