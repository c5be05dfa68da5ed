package wgearlyfixed

import (
	"testing"
	"time"
)

func TestBatch(t *testing.T) {
	var b Batch
	b.Run(func() { time.Sleep(20 * time.Millisecond) })
	time.Sleep(5 * time.Millisecond) // other work meanwhile
	if n := b.Wait(); n != 1 {
		t.Errorf("%d jobs done, want 1", n)
	}
}
