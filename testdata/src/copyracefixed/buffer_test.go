package copyracefixed

import (
	"testing"
	"time"
)

func TestSnapshot(t *testing.T) {
	b := New(1)
	done := make(chan bool)
	go func() {
		b.Write(0, "a")
		done <- true
	}()
	time.Sleep(5 * time.Millisecond) // the write comes first
	if got := string(b.Snapshot()); got != "a" {
		t.Errorf("snapshot %q, want \"a\"", got)
	}
	<-done
}
