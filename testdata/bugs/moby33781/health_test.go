package moby33781

import (
	"context"
	"sync"
	"testing"
	"time"
)

func TestMonitorStops(t *testing.T) {
	stop := make(chan struct{})
	var mu sync.Mutex
	healthy := 0
	done := make(chan struct{})
	go func() {
		defer close(done)
		monitor(stop, func(context.Context) bool { return true }, func(ok bool) {
			mu.Lock()
			defer mu.Unlock()
			if ok {
				healthy++
			}
		})
	}()
	time.Sleep(25 * time.Millisecond) // two probes; stop between them
	stop <- struct{}{}
	<-done
	mu.Lock()
	defer mu.Unlock()
	if healthy == 0 {
		t.Error("no healthy probe recorded")
	}
}
