package mapwritesfixed

import (
	"sync"
	"testing"
	"time"
)

func TestCount(t *testing.T) {
	c := New()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // the second document arrives later
		c.Add("Go go")
	}()
	c.Add("go is fun")
	wg.Wait()

	if got := c.Count("go"); got != 3 {
		t.Errorf("go counted %d times, want 3", got)
	}
	if got := c.Count("fun"); got != 1 {
		t.Errorf("fun counted %d times, want 1", got)
	}
}
