package splitunit

import (
	"sync"
	"testing"
	"time"
)

func TestDo(t *testing.T) {
	g := New()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		g.Do("a", func() {})
	}()
	go func() {
		defer wg.Done()
		time.Sleep(20 * time.Millisecond)
		// The same key: map elements are told apart by key (an
		// interleaving on another key's element is none).
		g.Do("a", func() {})
	}()
	wg.Wait()
	if d, p := g.Done(), g.Pending(); d != 2 || p != 0 {
		t.Errorf("done %d, pending %d; want 2, 0", d, p)
	}
}
