package atomiccta

import "sync/atomic"

// Gauge records the peak of the values it observes.
type Gauge struct {
	peak atomic.Int64
}

// Observe records a value.
func (g *Gauge) Observe(v int64) {
	if g.peak.Load() < v { // want "atomicity violation on Gauge\\.peak"
		g.peak.Store(v)
	}
}

// Peak returns the highest value observed.
func (g *Gauge) Peak() int64 { return g.peak.Load() }
