package atomicplain

import (
	"testing"
	"time"
)

func TestHits(t *testing.T) {
	var c Counter
	done := make(chan bool)
	go func() {
		c.Hit()
		done <- true
	}()
	time.Sleep(5 * time.Millisecond)
	if n := c.Hits(); n != 1 {
		t.Errorf("hits = %d, want 1", n)
	}
	<-done
}
