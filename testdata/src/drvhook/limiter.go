package drvhook

import "sync"

// Counter is what a Limiter counts with.
type Counter interface {
	Config(window int)
	Inc(key string) int
}

// Limiter counts requests per key and allows at most limit of them.
type Limiter struct {
	c     Counter
	limit int
}

// NewLimiter hands the window to the counter before the limiter is
// shared.
func NewLimiter(c Counter, limit, window int) *Limiter {
	c.Config(window)
	return &Limiter{c: c, limit: limit}
}

// Allow counts one request of key and says whether it is within the
// limit.
func (l *Limiter) Allow(key string) bool {
	return l.c.Inc(key) <= l.limit
}

// SetWindow changes the window while the limiter serves.
func (l *Limiter) SetWindow(window int) {
	// The counter's Config is not made for a limiter in use.
	l.c.Config(window)
}

type local struct {
	mu     sync.Mutex
	window int
	counts map[string]int
}

// NewLocal is an in-memory Counter.
func NewLocal() *local {
	return &local{counts: map[string]int{}}
}

// Config sets the weight of one request.
func (c *local) Config(window int) {
	c.window = window // want "data race on local\\.window.*found by a generated driver calling Config and"
}

func (c *local) Inc(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.counts[key] += c.window
	return c.counts[key]
}
