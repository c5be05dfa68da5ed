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
	// Under load one round can take longer than the 9 ms an idle machine
	// gives it: stop once a round is counted, not after a fixed time.
	for deadline := time.Now().Add(5 * time.Second); m.Up() == 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	m.Stop()
	if m.Up() == 0 {
		t.Error("no round counted")
	}
}
