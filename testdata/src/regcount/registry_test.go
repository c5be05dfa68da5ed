package regcount

import (
	"sync"
	"testing"
	"time"
)

type reporter struct {
	mu sync.Mutex
	n  int64
}

func (r *reporter) ReportCounter(_ string, d int64) {
	r.mu.Lock()
	r.n += d
	r.mu.Unlock()
}

func (r *reporter) total() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}

// TestClose: the report loop's last tick is under way when the root scope
// is closed, with its final report. The counter was incremented once, so
// the two reports together report 1.
func TestClose(t *testing.T) {
	g := NewRegistry()
	g.Root().Counter("requests").Inc(1)
	r := &reporter{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		g.Report(r)
	}()
	time.Sleep(5 * time.Millisecond)
	g.Close(r)
	<-done
	if n := r.total(); n != 1 {
		t.Errorf("reported %d requests, want 1", n)
	}
}
