package grpc2371fixed

import (
	"testing"
	"time"
)

func TestCloseWhileServiceConfigUpdate(t *testing.T) {
	cc := Dial("localhost:50051")
	ccr := cc.resolverWrapper
	ccr.NewServiceConfig(`{"loadBalancingPolicy":"round_robin"}`)
	time.Sleep(20 * time.Millisecond) // the user closes the connection later
	if err := cc.Close(); err != nil {
		t.Fatalf("Close = %v", err)
	}
	<-ccr.exited
	if err := cc.Close(); err != ErrClientConnClosing {
		t.Errorf("second Close = %v, want %v", err, ErrClientConnClosing)
	}
}
