package lazynode

import (
	"sync"
	"testing"
	"time"
)

func TestStoreFull(t *testing.T) {
	m := &Map{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		m.Store("a", 1)
	}()
	var full bool
	go func() {
		defer wg.Done()
		time.Sleep(2 * time.Millisecond)
		full = m.Full()
	}()
	wg.Wait()
	if full {
		t.Errorf("a set of at most one key is full")
	}
}
