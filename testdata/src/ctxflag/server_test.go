package ctxflag

import (
	"sync"
	"testing"
	"time"
)

func TestHandleThenShutdown(t *testing.T) {
	s := New(map[string]string{"answer": "42"})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the shutdown signal
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		s.Shutdown()
	}()
	got, err := s.Handle("answer")
	wg.Wait()

	if err != nil || got != "42" {
		t.Errorf("Handle = %q, %v; want 42", got, err)
	}
	if _, err := s.Handle("answer"); err != ErrServerClosed {
		t.Errorf("Handle after Shutdown: %v, want ErrServerClosed", err)
	}
}
