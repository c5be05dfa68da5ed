package shutdownclosefixed

import (
	"sync"
	"testing"
	"time"
)

func TestShutdownTwice(t *testing.T) {
	h := New()
	var wg sync.WaitGroup
	wg.Add(1)
	var other error
	go func() { // the signal handler
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		other = h.Shutdown()
	}()
	mine := h.Shutdown() // the owner
	wg.Wait()
	if (mine == nil) == (other == nil) {
		t.Errorf("Shutdowns returned %v and %v, want one nil and one ErrClosed", mine, other)
	}
	select {
	case <-h.done:
	default:
		t.Error("hub not shut down")
	}
}
