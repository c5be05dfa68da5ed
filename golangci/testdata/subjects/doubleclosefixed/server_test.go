package doubleclosefixed

import (
	"sync"
	"testing"
	"time"
)

func TestStopTwice(t *testing.T) {
	s := New()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the signal handler
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		s.Stop()
	}()
	s.Stop() // the owner
	wg.Wait()

	select {
	case <-s.Done():
	default:
		t.Error("server not stopped")
	}
}
