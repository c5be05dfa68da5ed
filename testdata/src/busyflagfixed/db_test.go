package busyflagfixed

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestCompact: a Delete and a Compact while a compaction runs, held
// before its look until they returned; the Compact is refused, and one
// after the running compaction ends reclaims whatever is left.
func TestCompact(t *testing.T) {
	var gate sync.Mutex
	gate.Lock()
	db := &DB{hook: func() { gate.Lock(); gate.Unlock() }}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := db.Compact(); err != nil {
			t.Error(err)
		}
	}()
	waitFor(t, func() bool { return atomic.LoadInt32(&db.running) == 1 })
	db.Delete()
	if _, err := db.Compact(); err != ErrBusy {
		t.Errorf("Compact during a compaction: %v, want ErrBusy", err)
	}
	gate.Unlock()
	<-done
	if _, err := db.Compact(); err != nil {
		t.Error(err)
	}
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
