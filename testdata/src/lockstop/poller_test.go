package lockstop

import (
	"testing"
	"time"
)

func TestPoller(t *testing.T) {
	p := Start(20 * time.Millisecond)
	// Two polls (20 and 40 ms); Stop comes between them, 10 ms from
	// either: the loop is waiting in its select, unless the machine is
	// so loaded that the recording itself hits the deadlock (at 4 and
	// 10 ms it did, now and then, at load 30).
	time.Sleep(50 * time.Millisecond)
	if n := p.Stop(); n == 0 {
		t.Error("no poll counted")
	}
}
