package janitorfixed

import (
	"testing"
	"time"
)

// TestSweeps touches an entry before the first sweep and waits for two
// sweeps, 150 ms apart: longer than a replay's old quiet bound, so that a
// replay ending in the wait for the second tick once took it for a hang.
func TestSweeps(t *testing.T) {
	j := New(150 * time.Millisecond)
	go j.Run()
	defer j.Stop()
	j.Touch()
	first := <-j.Swept()
	second := <-j.Swept()
	t.Logf("swept %d, then %d", first, second)
}
