package etcd6429fixed

import (
	"testing"
	"time"
)

func TestUpThenClose(t *testing.T) {
	b := newSimpleBalancer("localhost:2379")
	done := make(chan struct{})
	go func() { // gRPC's connection goroutine
		defer close(done)
		eps := <-b.notifyCh
		b.Up(eps[0])
	}()
	time.Sleep(20 * time.Millisecond) // the client closes later
	if err := b.Close(); err != nil {
		t.Fatalf("Close = %v", err)
	}
	<-done
	if got := b.Get(); got != "" { // a closed balancer pins nothing
		t.Errorf("Get after Close = %q, want \"\"", got)
	}
}
