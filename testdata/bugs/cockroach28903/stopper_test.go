package cockroach28903

import (
	"testing"
	"time"
)

func TestEnsureClientDuringStop(t *testing.T) {
	c := &Clients{stopper: &Stopper{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.EnsureClient() // a request for a node while the server shuts down
	}()
	time.Sleep(5 * time.Millisecond)
	c.stopper.Stop()
	c.mu.Lock()
	c.stopped = true
	c.mu.Unlock()
	<-done
	time.Sleep(30 * time.Millisecond) // the rest of the shutdown
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.late != 0 {
		t.Errorf("%d workers ran after Stop returned", c.late)
	}
}
