package drvassign

import (
	"sync"
	"testing"
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
	b.Publish(1)
	b.Publish(2)
	mu.Lock()
	got := last
	mu.Unlock()
	if got != 2 || b.Delivered() != 2 {
		t.Fatalf("last %d, %d delivered; want 2, 2", got, b.Delivered())
	}
}
