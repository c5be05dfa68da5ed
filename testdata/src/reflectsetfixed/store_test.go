package reflectsetfixed

import (
	"testing"
	"time"
)

func TestTimeout(t *testing.T) {
	s := &Store{cfg: Config{Name: "web", Timeout: 1}}
	done := make(chan bool)
	go func() { // the operator
		s.Set("Timeout", 30)
		done <- true
	}()
	time.Sleep(10 * time.Millisecond) // the change comes first
	if got := s.Timeout(); got != 30 {
		t.Errorf("timeout %d, want 30", got)
	}
	<-done
}
