package pollwait

import (
	"testing"
	"time"
)

// TestJobDone: once a job's name is released, no worker is left.
func TestJobDone(t *testing.T) {
	j := New()
	j.Submit("a", func() {})
	left := -1
	if !waitUntil(time.Second, func() bool {
		j.mu.Lock()
		defer j.mu.Unlock()
		_, tracked := j.names["a"]
		left = j.active
		return !tracked
	}) {
		t.Fatal("the job's name is still held")
	}
	if left != 0 {
		t.Errorf("%d workers left after the job's name was released", left)
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
