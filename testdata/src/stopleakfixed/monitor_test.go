package stopleakfixed

import (
	"testing"
	"time"
)

func TestMonitor(t *testing.T) {
	m := Start(func() bool {
		time.Sleep(2 * time.Millisecond) // a probe takes a while
		return true
	})
	time.Sleep(9 * time.Millisecond) // a few rounds
	m.Stop()
	if m.Up() == 0 {
		t.Error("no round counted")
	}
}
