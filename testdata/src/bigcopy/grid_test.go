package bigcopy

import (
	"testing"
	"time"
)

func TestSnapshot(t *testing.T) {
	g := new(Grid)
	done := make(chan bool)
	go func() {
		g.Set(40, 7, 1)
		done <- true
	}()
	time.Sleep(5 * time.Millisecond) // the update comes first
	snap := g.Snapshot()
	<-done
	if snap[40][7] != 1 {
		t.Errorf("snapshot cell (40, 7) = %d, want 1", snap[40][7])
	}
}
