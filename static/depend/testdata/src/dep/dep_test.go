package dep

import (
	"sync/atomic"
	"testing"
	"time"
)

// poll calls cond until it returns true (pogreb's assert.CompleteWithin).
func poll(t *testing.T, cond func() bool) {
	for !cond() {
	}
}

func TestCompactorBusy(t *testing.T) {
	c := &Compactor{}
	go c.Compact()
	poll(t, func() bool { return atomic.LoadInt32(&c.running) == 1 }) // compactor probe
	if _, err := c.Compact(); err != errCompactBusy {
		t.Log(err)
	}
	var seen int32
	poll(t, func() bool {
		v := atomic.LoadInt32(&c.running) // compactor kept probe
		seen = v
		return v == 1
	})
	_ = seen
}

// waitUntil calls cond every 5ms until it holds or timeout passes
// (certmagic's async_test.go).
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

func TestPollJobs(t *testing.T) {
	j := &PollJobs{names: map[string]struct{}{"a": {}}, active: 1}
	go j.worker("a")
	if !waitUntil(time.Second, func() bool {
		j.mu.Lock()
		defer j.mu.Unlock()
		_, tracked := j.names["a"]       // polljobs tracked
		return !tracked && j.active == 0 // polljobs active
	}) {
		t.Fatal("the name or the worker is still held")
	}
	left := -1
	if !waitUntil(time.Second, func() bool {
		j.mu.Lock()
		defer j.mu.Unlock()
		_, tracked := j.names["a"] // polljobs kept tracked
		if !tracked {
			left = j.active // polljobs kept active
		}
		return !tracked
	}) {
		t.Fatal("the name is still held")
	}
	if left != 0 {
		t.Errorf("%d workers left", left)
	}
	waitUntil(time.Second, func() bool {
		j.mu.Lock()
		defer j.mu.Unlock()
		for k := 0; k < 2; k++ {
			if j.active > k { // polljobs loop active
				return false
			}
		}
		return true
	})
	for i := 0; i < 2; i++ {
		waitUntil(time.Second, func() bool {
			j.mu.Lock()
			defer j.mu.Unlock()
			_, tracked := j.names["a"]       // polljobs again tracked
			return !tracked && j.active == 0 // polljobs again active
		})
	}
}
