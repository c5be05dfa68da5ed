package notifyhintfixed

import (
	"testing"
	"time"
)

func TestAdd(t *testing.T) {
	e := New()
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		e.Run(stop)
		close(done)
	}()
	e.Add(1)
	time.Sleep(5 * time.Millisecond) // the loop drains 1 meanwhile
	e.Add(2)
	time.Sleep(5 * time.Millisecond) // and 2
	close(stop)
	<-done
	if n := e.Drained() + len(e.queue); n != 2 {
		t.Errorf("drained and queued %d, want 2", n)
	}
}
