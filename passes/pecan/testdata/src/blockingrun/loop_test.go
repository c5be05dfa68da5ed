package blockingrun

import "testing"

func TestLoop(t *testing.T) {
	l := New()
	done := make(chan struct{})
	go func() {
		defer close(done)
		l.Run()
	}()
	l.Send(1)
	l.Stop()
	<-done
}
