package lockstopfixed

import (
	"testing"
	"time"
)

func TestPoller(t *testing.T) {
	p := Start(4 * time.Millisecond)
	time.Sleep(10 * time.Millisecond) // two polls; Stop comes between them
	if n := p.Stop(); n == 0 {
		t.Error("no poll counted")
	}
}
