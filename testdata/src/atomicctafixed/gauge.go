package atomicctafixed

import "sync/atomic"

// Gauge records the peak of the values it observes.
type Gauge struct {
	peak atomic.Int64
}

// Observe records a value.
func (g *Gauge) Observe(v int64) {
	for {
		old := g.peak.Load()
		if old >= v || g.peak.CompareAndSwap(old, v) {
			return
		}
	}
}

// Peak returns the highest value observed.
func (g *Gauge) Peak() int64 { return g.peak.Load() }
