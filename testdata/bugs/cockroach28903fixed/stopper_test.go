package cockroach28903fixed

import (
	"testing"
	"time"
)

func TestEnsureClientDuringStop(t *testing.T) {
	c := &Clients{stopper: &Stopper{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.EnsureClient() // a request for a node, early
	}()
	<-done
	time.Sleep(20 * time.Millisecond)
	c.stopper.Stop()
	c.mu.Lock()
	c.stopped = true
	started := c.started
	c.mu.Unlock()
	if started != 1 {
		t.Errorf("started %d clients, want 1", started)
	}
}
