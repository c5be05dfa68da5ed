package capcheck

import "sync"

// Limiter hands out at most max slots.
type Limiter struct {
	mu       sync.Mutex
	n, max   int
	attempts int
}

// NewLimiter returns a limiter of max slots.
func NewLimiter(max int) *Limiter { return &Limiter{max: max} }

// InUse returns the slots taken.
func (l *Limiter) InUse() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n // want "atomicity violation on Limiter\\.n"
}

// take takes a slot.
func (l *Limiter) take() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
}

// TryAcquire takes a slot if one is free.
func (l *Limiter) TryAcquire() bool {
	l.count()
	if l.InUse() >= l.max {
		return false
	}
	l.take()
	l.count()
	return true
}

// Release gives a slot back.
func (l *Limiter) Release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n--
}

// count counts calls, for statistics.
func (l *Limiter) count() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.attempts++
}
