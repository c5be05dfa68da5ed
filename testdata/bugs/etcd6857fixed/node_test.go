package etcd6857fixed

import (
	"sync"
	"testing"
	"time"
)

func TestStatusWhileStopping(t *testing.T) {
	n := newNode(1)
	go n.run()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(20 * time.Millisecond) // the node is stopped later
		n.Stop()
	}()
	if s := n.Status(); s.ID != 1 {
		t.Errorf("Status().ID = %d, want 1", s.ID)
	}
	wg.Wait()
}
