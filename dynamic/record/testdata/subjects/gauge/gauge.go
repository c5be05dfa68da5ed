package gauge

import "sync/atomic"

// Gauge counts the calls of Run in progress and the calls done.
type Gauge struct {
	running atomic.Int64
	done    atomic.Int64
}

// Run calls f, counted as running meanwhile.
func (g *Gauge) Run(f func()) {
	g.running.Add(1) // want "atomicity violation on Gauge\\.running"
	f()
	g.running.Add(-1)
	g.done.Add(1)
}

// Reset starts a new batch of calls.
func (g *Gauge) Reset() {
	g.running.Store(0)
}

// Running returns the number of calls in progress.
func (g *Gauge) Running() int64 { return g.running.Load() }

// Done returns the number of calls done.
func (g *Gauge) Done() int64 { return g.done.Load() }
