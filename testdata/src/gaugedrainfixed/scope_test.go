package gaugedrainfixed

import (
	"sync"
	"testing"
	"time"
)

type reporter struct {
	mu sync.Mutex
	n  int
}

func (r *reporter) ReportGauge(string, uint64) {
	r.mu.Lock()
	r.n++
	r.mu.Unlock()
}

func (r *reporter) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}

// TestClose: the scope is closed, with its final report, while the report
// loop's last tick runs: the gate holds the tick after its report, and
// Close runs then in the recorded run. The gauge is reported once.
func TestClose(t *testing.T) {
	s := NewScope()
	s.Gauge("g").Update(1)
	closing, ticking := &reporter{}, &reporter{}
	var gate sync.Mutex
	gate.Lock()
	s.between = func() {
		gate.Lock()
		gate.Unlock()
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.Tick(ticking)
	}()
	time.Sleep(50 * time.Millisecond)
	s.Close(closing)
	gate.Unlock()
	wg.Wait()
	if n := closing.count() + ticking.count(); n != 1 {
		t.Errorf("reported %d gauges, want 1", n)
	}
}
