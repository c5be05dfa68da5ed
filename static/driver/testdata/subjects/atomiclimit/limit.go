package atomiclimit

import "sync/atomic"

// Limiter admits at most max holders.
type Limiter struct {
	max     int64
	n       atomic.Int64
	running atomic.Int64
}

// New returns a limiter of max holders.
func New(max int64) *Limiter { return &Limiter{max: max} }

// Acquire admits the caller if fewer than max hold the limiter.
func (l *Limiter) Acquire() bool {
	if n := l.n.Load(); n < l.max { // want "atomicity violation on Limiter\\.n"
		l.n.Store(n + 1)
		return true
	}
	return false
}

// Release lets another holder in.
func (l *Limiter) Release() { l.n.Add(-1) }

// Work runs f counted as running.
func (l *Limiter) Work(f func()) {
	l.running.Add(1)
	f()
	l.running.Add(-1)
}

// Running is the number of Work calls in progress.
func (l *Limiter) Running() int64 { return l.running.Load() }
