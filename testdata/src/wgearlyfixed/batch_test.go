package wgearlyfixed

import (
	"testing"
	"time"
)

func TestBatch(t *testing.T) {
	var b Batch
	// The margins are wide: under load a goroutine can wait 5 ms and more
	// before it first runs.
	b.Run(func() { time.Sleep(200 * time.Millisecond) })
	time.Sleep(50 * time.Millisecond) // other work meanwhile
	if n := b.Wait(); n != 1 {
		t.Errorf("%d jobs done, want 1", n)
	}
}
