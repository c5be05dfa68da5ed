package regcountfixed

import (
	"sync"
	"sync/atomic"
)

// Reporter receives the counters' deltas.
type Reporter interface {
	ReportCounter(name string, delta int64)
}

// Counter counts; its report takes the delta since the last one.
type Counter struct {
	prev, curr int64
}

// Inc adds v.
func (c *Counter) Inc(v int64) { atomic.AddInt64(&c.curr, v) }

// value returns the delta since the last report and marks it taken
// (tally's counter.value, stats.go:76-84).
func (c *Counter) value() int64 {
	curr := atomic.LoadInt64(&c.curr)
	prev := atomic.LoadInt64(&c.prev)
	if prev == curr {
		return 0
	}
	atomic.StoreInt64(&c.prev, curr)
	return curr - prev
}

func (c *Counter) report(name string, r Reporter) {
	if d := c.value(); d != 0 {
		r.ReportCounter(name, d)
	}
}

// Scope holds counters by name until it is closed.
type Scope struct {
	cm       sync.RWMutex
	counters map[string]*Counter
	closed   atomic.Bool
}

// Counter returns the counter named name.
func (s *Scope) Counter(name string) *Counter {
	s.cm.Lock()
	defer s.cm.Unlock()
	c, ok := s.counters[name]
	if !ok {
		c = &Counter{}
		s.counters[name] = c
	}
	return c
}

func (s *Scope) report(r Reporter) {
	s.cm.RLock()
	for name, c := range s.counters {
		c.report(name, r)
	}
	s.cm.RUnlock()
}

func (s *Scope) clearMetrics() {
	s.cm.Lock()
	for name := range s.counters {
		delete(s.counters, name)
	}
	s.cm.Unlock()
}

// Registry holds the scopes by name (tally's scopeRegistry).
type Registry struct {
	// reporting is held for a whole report, so that Close's final
	// report and the report loop's tick do not overlap.
	reporting sync.Mutex
	mu        sync.RWMutex
	scopes    map[string]*Scope
}

// NewRegistry returns a registry holding a root scope named "root".
func NewRegistry() *Registry {
	return &Registry{scopes: map[string]*Scope{"root": {counters: map[string]*Counter{}}}}
}

// Root returns the root scope.
func (g *Registry) Root() *Scope {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.scopes["root"]
}

// Report reports every scope, and drops a closed one after reporting it
// (tally's scopeRegistry.Report): the report loop's tick and Close's
// final report, one at a time.
func (g *Registry) Report(r Reporter) {
	g.reporting.Lock()
	defer g.reporting.Unlock()
	g.mu.RLock()
	for name, s := range g.scopes {
		s.report(r)
		if s.closed.Load() {
			g.removeWithRLock(name)
			s.clearMetrics()
		}
	}
	g.mu.RUnlock()
}

func (g *Registry) removeWithRLock(name string) {
	g.mu.RUnlock()
	defer g.mu.RLock()
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.scopes, name)
}

// Close closes the root scope and reports a final time, after the report
// loop's tick under way.
func (g *Registry) Close(r Reporter) {
	if !g.Root().closed.CompareAndSwap(false, true) {
		return
	}
	g.Report(r)
}
