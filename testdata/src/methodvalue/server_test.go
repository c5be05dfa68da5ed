package methodvalue

import (
	"testing"
	"time"
)

func TestDispatch(t *testing.T) {
	s := &Server{h: &Handler{}}
	done := make(chan bool)
	go func() { // the operator
		s.SetHandler(&Handler{upper: true})
		done <- true
	}()
	time.Sleep(5 * time.Millisecond) // the new handler comes first
	if got := s.Dispatch()("x"); got != "X" {
		t.Errorf("served %q, want \"X\"", got)
	}
	<-done
}
