package shutdownclose

import (
	"sync"
	"testing"
	"time"
)

func TestShutdownTwice(t *testing.T) {
	h := New()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the signal handler
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		_ = h.Shutdown()
	}()
	if err := h.Shutdown(); err != nil { // the owner
		t.Errorf("owner's Shutdown: %v", err)
	}
	wg.Wait()
}
