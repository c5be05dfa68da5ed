package ctxdrain

import (
	"testing"
	"time"
)

// drain reads f's events until the test's context is canceled, at the end
// of the test; the test does not wait for it.
func drain(t *testing.T, f *Feed) {
	go func() {
		for {
			select {
			case <-t.Context().Done():
				return
			case e := <-f.Events():
				t.Logf("event %s", e) // want "data race on the test's T"
			}
		}
	}()
}

// TestFeed publishes an event and gives the drain goroutine time to take
// it (the sleep is no synchronization).
func TestFeed(t *testing.T) {
	f := NewFeed()
	drain(t, f)
	f.Publish("started")
	time.Sleep(3 * time.Millisecond)
}
