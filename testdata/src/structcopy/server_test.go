package structcopy

import (
	"testing"
	"time"
)

func TestLimits(t *testing.T) {
	s := &Server{limits: Limits{Max: 100, Burst: 5}}
	done := make(chan bool)
	go func() { // the operator
		s.SetBurst(10)
		done <- true
	}()
	time.Sleep(5 * time.Millisecond) // the change comes first
	if got := s.Limits(); got.Burst != 10 {
		t.Errorf("burst %d, want 10", got.Burst)
	}
	<-done
}
