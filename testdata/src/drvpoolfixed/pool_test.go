package drvpoolfixed

import (
	"sync"
	"testing"
)

func TestPool(t *testing.T) {
	var mu sync.Mutex
	sum := 0
	p := NewPool(2, func(x int) {
		mu.Lock()
		sum += x
		mu.Unlock()
	})
	p.Start()
	p.Submit(3)
	p.Submit(4)
	p.Stop()
	if got := p.Submitted(); got != 2 {
		t.Errorf("submitted %d, want 2", got)
	}
	if sum != 7 {
		t.Errorf("sum %d, want 7", sum)
	}
}
