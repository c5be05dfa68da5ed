package drvassign

import (
	"sync"
	"testing"
	"time"
)

func TestPublish(t *testing.T) {
	b := NewBus()
	var mu sync.Mutex
	var last int
	b.Subscribe(func(v int) {
		mu.Lock()
		last = v
		mu.Unlock()
	})
	var ready bool
	done := make(chan struct{})
	time.AfterFunc(time.Millisecond, func() {
		mu.Lock()
		ready = true
		mu.Unlock()
		close(done)
	})
	b.Publish(1)
	b.Publish(2)
	<-done
	mu.Lock()
	got, ok := last, ready
	mu.Unlock()
	if got != 2 || !ok || b.Delivered() != 2 {
		t.Fatalf("last %d, ready %v, %d delivered; want 2, true, 2", got, ok, b.Delivered())
	}
}
