package rangeelemfixed

import (
	"testing"
	"time"
)

func TestTotal(t *testing.T) {
	s := New(3)
	done := make(chan bool)
	go func() {
		s.Record(2)
		done <- true
	}()
	time.Sleep(5 * time.Millisecond) // the event comes first
	if got := s.Total(); got != 1 {
		t.Errorf("total %d, want 1", got)
	}
	<-done
}
