package gaugedrain

import (
	"sync"
	"sync/atomic"
)

// Reporter receives the gauges reported.
type Reporter interface {
	ReportGauge(name string, v uint64)
}

// Gauge holds a value and whether it was updated since its last report.
type Gauge struct {
	updated, curr uint64
}

// Update sets the gauge.
func (g *Gauge) Update(v uint64) {
	atomic.StoreUint64(&g.curr, v)
	atomic.StoreUint64(&g.updated, 1)
}

// report reports the gauge if it was updated since its last report.
func (g *Gauge) report(name string, r Reporter) {
	if atomic.SwapUint64(&g.updated, 0) == 1 { // want "atomic-set-serializability violation on Gauge\\.updated, map\\[string\\]\\*Gauge: .*inconsistent snapshot: .* the value read at scope\\.go:63 decides the call of Gauge\\.report"
		r.ReportGauge(name, atomic.LoadUint64(&g.curr))
	}
}

// Scope holds gauges by name until it is closed; its report loop (Tick)
// then clears them.
type Scope struct {
	mu     sync.RWMutex
	gauges map[string]*Gauge
	closed atomic.Bool
	// between runs in the report loop's tick after its report, before
	// it clears a closed scope (a test's hook).
	between func()
}

// NewScope returns a scope without gauges.
func NewScope() *Scope { return &Scope{gauges: map[string]*Gauge{}} }

// Gauge returns the gauge named name.
func (s *Scope) Gauge(name string) *Gauge {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.gauges[name]
	if !ok {
		g = &Gauge{}
		s.gauges[name] = g
	}
	return g
}

// report reports the updated gauges, and returns how many gauges it came
// to.
func (s *Scope) report(r Reporter) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	n := 0
	for name, g := range s.gauges {
		g.report(name, r)
		n++
	}
	return n
}

// Tick is one round of the report loop: it reports, then clears the
// gauges of a closed scope.
func (s *Scope) Tick(r Reporter) {
	s.report(r)
	s.clearIfClosed()
}

// clearIfClosed deletes the gauges of a closed scope (tally's
// clearMetrics).
func (s *Scope) clearIfClosed() {
	if s.between != nil {
		s.between()
	}
	if !s.closed.Load() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for name := range s.gauges {
		delete(s.gauges, name)
	}
}

// Close closes the scope and reports a final time, returning how many
// gauges that report came to.
func (s *Scope) Close(r Reporter) int {
	s.closed.Store(true)
	return s.report(r)
}
