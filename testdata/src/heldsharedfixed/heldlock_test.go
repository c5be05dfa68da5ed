package heldsharedfixed

import (
	"strings"
	"sync"
	"testing"
	"time"
)

// TestReport: one owner takes a, holds it for 20 ms, then takes b;
// another, a little later, lists the locks held and takes b. Every lock
// listed names where it was taken.
func TestReport(t *testing.T) {
	c := NewChecker()
	a, b := c.NewMutex(), c.NewMutex()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		a.Lock(1, "one.a")
		time.Sleep(20 * time.Millisecond)
		b.Lock(1, "one.b")
		b.Unlock()
		a.Unlock()
	}()
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		for _, h := range c.Holders() {
			if strings.HasSuffix(h, "@") {
				t.Logf("held lock without a site: %s", h)
			}
		}
		b.Lock(2, "two.b")
		b.Unlock()
	}()
	wg.Wait()
	if c.Inversions != 0 {
		t.Errorf("%d inversions, want 0", c.Inversions)
	}
}
