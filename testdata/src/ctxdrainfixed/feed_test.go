package ctxdrainfixed

import (
	"sync"
	"testing"
	"time"
)

// drain reads f's events into seen until the test's context is canceled,
// at the end of the test; the test does not wait for it.
func drain(t *testing.T, f *Feed, mu *sync.Mutex, seen *[]string) {
	go func() {
		for {
			select {
			case <-t.Context().Done():
				return
			case e := <-f.Events():
				mu.Lock()
				*seen = append(*seen, e)
				mu.Unlock()
			}
		}
	}()
}

// TestFeed publishes an event, gives the drain goroutine time to take it
// (the sleep is no synchronization) and logs what it took.
func TestFeed(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	f := NewFeed()
	drain(t, f, &mu, &seen)
	f.Publish("started")
	time.Sleep(3 * time.Millisecond)
	mu.Lock()
	t.Logf("events %v", seen)
	mu.Unlock()
}
