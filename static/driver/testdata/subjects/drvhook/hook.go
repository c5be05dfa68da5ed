// Package drvhook has two counters meant for concurrent use, each with a
// method that writes without the lock. Counter.Config is a construction
// hook (httprate's LimitCounter.Config): the package calls it through
// its interface only in NewLimiter, so no driver calls it beside Inc.
// Store.Resize is called at run time too (Limiter.Grow): its drivers stay.
package drvhook

import "sync"

// Counter is what a limiter counts with.
type Counter interface {
	Config(window int)
	Inc(key string) int
}

// Sizer is what a limiter grows.
type Sizer interface {
	Resize(n int)
}

// Limiter counts requests.
type Limiter struct {
	c Counter
	s Sizer
}

// NewLimiter hands the window to the counter before anyone shares it.
func NewLimiter(c Counter, s Sizer, window int) *Limiter {
	c.Config(window)
	return &Limiter{c: c, s: s}
}

// Allow counts one request of key.
func (l *Limiter) Allow(key string) bool { return l.c.Inc(key) < 10 }

// Grow resizes while requests come in.
func (l *Limiter) Grow(n int) { l.s.Resize(n) }

type local struct {
	mu     sync.Mutex
	window int
	counts map[string]int
}

// NewLocal is an in-memory Counter.
func NewLocal() *local { return &local{counts: map[string]int{}} }

func (c *local) Config(window int) { c.window = window }

func (c *local) Inc(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.counts[key] += c.window
	return c.counts[key]
}

type store struct {
	mu   sync.Mutex
	size int
	xs   []int
}

// NewStore is a Sizer.
func NewStore() *store { return &store{} }

func (s *store) Resize(n int) { s.size = n }

func (s *store) Put(x int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.xs) < s.size {
		s.xs = append(s.xs, x)
	}
}
