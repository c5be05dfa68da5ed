package busyflag

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestCompact: a Delete while a compaction runs, held before its look
// until the Delete returned; once the compaction ends, the record is
// reclaimed.
func TestCompact(t *testing.T) {
	var gate sync.Mutex
	gate.Lock()
	db := &DB{hook: func() { gate.Lock(); gate.Unlock() }}
	done := make(chan struct{})
	go func() {
		defer close(done)
		db.Compact()
	}()
	waitFor(t, func() bool { return atomic.LoadInt32(&db.running) == 1 })
	db.Delete()
	gate.Unlock()
	<-done
	if got := db.Reclaimed(); got != 1 {
		t.Errorf("reclaimed %d records, want 1", got)
	}
}

// waitFor polls cond until it holds (pogreb's assert.CompleteWithin).
func waitFor(t *testing.T, cond func() bool) {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("condition not met within a minute")
}
