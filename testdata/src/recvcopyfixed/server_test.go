package recvcopyfixed

import (
	"testing"
	"time"
)

func TestSummary(t *testing.T) {
	s := &Server{Settings: &Settings{Name: "web", Level: 1}}
	done := make(chan bool)
	go func() { // the operator
		s.SetLevel(2)
		done <- true
	}()
	time.Sleep(10 * time.Millisecond) // the change comes first
	if got := s.Describe(); got != "web:2" {
		t.Errorf("summary %q, want %q", got, "web:2")
	}
	<-done
}
