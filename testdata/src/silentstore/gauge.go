package silentstore

import "sync/atomic"

// Gauge records the peak of the values it observes.
type Gauge struct {
	peak atomic.Int64
}

// Observe records a value.
func (g *Gauge) Observe(v int64) {
	// The check and the store are two atomic operations, not one.
	if g.peak.Load() < v { // want "atomicity violation on Gauge\\.peak"
		g.peak.Store(v)
	}
}

// Restore sets the peak to a saved one.
func (g *Gauge) Restore(p int64) {
	// Unconditional: it may lower the peak, or be lowered.
	g.peak.Store(p)
}

// Peak returns the highest value observed.
func (g *Gauge) Peak() int64 { return g.peak.Load() }
