package pollwaitfixed

import (
	"testing"
	"time"
)

// TestJobDone: once a job is done, its name is released and no worker
// is left.
func TestJobDone(t *testing.T) {
	j := New()
	j.Submit("a", func() {})
	if !waitUntil(time.Second, func() bool {
		j.mu.Lock()
		defer j.mu.Unlock()
		_, tracked := j.names["a"]
		return !tracked && j.active == 0
	}) {
		t.Fatal("the job's name or worker is still held")
	}
}

// waitUntil calls cond every 5ms until it holds or timeout passes.
func waitUntil(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(5 * time.Millisecond)
	}
	return cond()
}
