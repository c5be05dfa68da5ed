package capped

import "testing"

// TestCapped races on a Box at its start, then counts long past the
// event cap its check sets.
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
}
