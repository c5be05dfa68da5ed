package quietfirst

import (
	"sync"
	"testing"
	"time"
)

// TestAReset counts once, then resets the counter while another
// goroutine sets it: either order, and the interleaving of the Set
// between Reset's two critical sections, leave 0 or 5.
func TestAReset(t *testing.T) {
	c := &Counter{}
	c.Incr()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		c.Reset()
	}()
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		c.Set(5)
	}()
	wg.Wait()
	if n := c.Get(); n != 0 && n != 5 {
		t.Errorf("n = %d, want 0 or 5", n)
	}
}

// TestBIncr increments the counter from two goroutines.
func TestBIncr(t *testing.T) {
	c := &Counter{}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 5 * time.Millisecond)
			c.Incr()
		}()
	}
	wg.Wait()
	if n := c.Get(); n != 2 {
		t.Errorf("n = %d, want 2", n)
	}
}
