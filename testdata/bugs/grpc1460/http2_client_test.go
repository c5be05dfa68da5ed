package grpc1460

import (
	"testing"
	"time"
)

func TestKeepaliveStreamTransition(t *testing.T) {
	c := newHTTP2Client()
	finished := make(chan struct{})
	go func() {
		c.keepalive()
		close(finished)
	}()
	time.Sleep(20 * time.Millisecond) // keepalive waits, no stream active
	s := c.NewStream()
	c.CloseStream(s)
	c.Close()
	<-finished
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pings != 1 {
		t.Errorf("pings = %d, want 1", c.pings)
	}
}
