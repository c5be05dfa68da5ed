package capped

import (
	"testing"
	"time"
)

// TestCapped races on a Box at its start, then counts long past the
// event cap its check sets, and waits: the recorder ends it at the cap
// (its goroutine needs a moment to run after the cap, which a loaded
// machine might not give a test that ends at once).
func TestCapped(t *testing.T) {
	var b Box
	done := make(chan bool)
	go func() { b.Set(1); done <- true }()
	b.Set(2)
	<-done
	var c Counter
	for i := 0; i < 100_000; i++ {
		c.Inc()
	}
	time.Sleep(500 * time.Millisecond)
}
