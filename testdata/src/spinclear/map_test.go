package spinclear

import (
	"sync"
	"testing"
	"time"
)

// TestClearGet: a Get of the one key, and 2 ms later a Clear; the Get
// finds the value or, after the Clear, nothing, and never fails.
func TestClearGet(t *testing.T) {
	c := New()
	c.Put(1, 10)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		time.Sleep(2 * time.Millisecond)
		c.Clear()
	}()
	go func() {
		defer wg.Done()
		v, ok, err := c.Get(1)
		if err != nil {
			t.Errorf("Get: %v", err)
		}
		if ok && v != 10 {
			t.Errorf("Get = %d, want 10", v)
		}
	}()
	wg.Wait()
}
