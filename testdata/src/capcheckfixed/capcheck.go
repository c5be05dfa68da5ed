package capcheckfixed

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
	return l.n
}

// tryTake takes a slot if one is free.
func (l *Limiter) tryTake() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n >= l.max {
		return false
	}
	l.n++
	return true
}

// TryAcquire takes a slot if one is free.
func (l *Limiter) TryAcquire() bool {
	l.count()
	if !l.tryTake() {
		return false
	}
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
