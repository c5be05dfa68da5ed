package peerconnect

import (
	"sync"
	"testing"
	"time"
)

// TestCall: one goroutine connects the cluster; another, a little later,
// calls b from a, which answers with its address once connected.
func TestCall(t *testing.T) {
	a, b := NewTransport("a"), NewTransport("b")
	c := &Cluster{trans: []*Transport{a, b}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		c.FullyConnect()
	}()
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		if got, err := a.Call("b"); err == nil && got != "b" {
			t.Errorf("Call(b) = %q, want b", got)
		}
	}()
	wg.Wait()
}
