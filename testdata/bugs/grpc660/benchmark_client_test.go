package grpc660

import (
	"testing"
	"time"
)

func TestCloseLoopUnary(t *testing.T) {
	bc := &benchmarkClient{stop: make(chan struct{})}
	finished := make(chan struct{})
	go func() {
		bc.doCloseLoopUnary()
		close(finished)
	}()
	time.Sleep(21 * time.Millisecond) // about ten calls
	bc.shutdown()
	<-finished
	bc.mu.Lock()
	defer bc.mu.Unlock()
	if bc.calls == 0 {
		t.Error("no call made")
	}
}
