package earlywake

import (
	"context"
	"testing"
	"time"
)

// TestRetag queues a job due in an hour and relabels it: it must not run
// while the test waits.
func TestRetag(t *testing.T) {
	s := New()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Loop(ctx); close(done) }()
	time.Sleep(5 * time.Millisecond)
	j := s.Add(time.Hour)
	s.Retag("b")
	select {
	case <-j.ran:
		t.Errorf("job ran %v before its due time", j.due.Sub(j.ranAt).Round(time.Minute))
	case <-time.After(200 * time.Millisecond):
	}
	cancel()
	<-done
}
