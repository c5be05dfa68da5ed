package shrinkbusy

import (
	"testing"
	"time"
)

func TestShrinkBusy(t *testing.T) {
	p := New(2)
	release := make(chan struct{})
	p.Submit(func() { <-release }) // the last worker is busy until release
	p.Resize(1)
	// Let the recycler shrink the pool (goroutines' test sleeps so).
	time.Sleep(20 * time.Millisecond)
	if n := p.Workers(); n != 1 {
		t.Errorf("%d workers, want 1", n)
	}
	close(release)
	p.Close()
}
