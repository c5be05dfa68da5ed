package drainstatusfixed

import (
	"testing"
	"time"
)

func TestBusy(t *testing.T) {
	c := &Cache{}
	done := make(chan bool)
	go func() {
		c.Maintain()
		done <- true
	}()
	time.Sleep(5 * time.Millisecond) // after the pass
	busy := c.Busy()
	<-done
	if busy && c.Busy() {
		t.Errorf("busy after the pass")
	}
}

func TestWrite(t *testing.T) {
	c := &Cache{}
	done := make(chan bool)
	go func() {
		c.Maintain()
		done <- true
	}()
	time.Sleep(5 * time.Millisecond) // after the pass
	c.Write()
	<-done
	if c.pending.Load() > 0 && !c.Required() {
		t.Errorf("a write is pending and no pass is required (status %d)", c.status.Load())
	}
}
