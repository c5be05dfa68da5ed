package cockroach4407fixed

import (
	"testing"
	"time"
)

func TestGossipDuringStop(t *testing.T) {
	s := &server{stopper: &Stopper{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Gossip() // a peer connects
	}()
	time.Sleep(5 * time.Millisecond) // the node shuts down later
	s.stopper.Stop()
	s.mu.Lock()
	s.stopped = true
	s.mu.Unlock()
	<-done
	time.Sleep(30 * time.Millisecond) // the rest of the shutdown
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.late != 0 {
		t.Errorf("%d senders ran after Stop returned", s.late)
	}
}
