package mutexreset

import (
	"testing"
	"time"
)

func TestReset(t *testing.T) {
	var c Counter
	done := make(chan bool)
	go func() {
		c.Inc()
		done <- true
	}()
	time.Sleep(5 * time.Millisecond) // the increment comes first
	c.Reset()
	<-done
	if n := c.N(); n != 0 {
		t.Errorf("count %d after the reset, want 0", n)
	}
}
