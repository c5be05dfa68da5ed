package retryloop

import (
	"sync"
	"time"
)

// Strategy is asked before each try whether to back off, and told how
// the try went.
type Strategy interface {
	Proceed() time.Duration
	Failure() bool
	Success()
}

// Breaker counts recent failures for every sender sharing it.
type Breaker struct {
	mu        sync.Mutex
	threshold int
	recent    int
	trips     int
}

// NewBreaker returns a breaker that backs off once threshold failures
// are recent.
func NewBreaker(threshold int) *Breaker { return &Breaker{threshold: threshold} }

// Proceed backs off while the breaker is tripped.
func (b *Breaker) Proceed() time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.recent < b.threshold {
		return 0
	}
	return time.Millisecond
}

// Failure counts a failure and reports whether it tripped the breaker.
func (b *Breaker) Failure() bool {
	b.mu.Lock()
	b.recent++ // want "atomicity violation on Breaker\\.recent"
	b.mu.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.recent == b.threshold {
		b.trips++
		return true
	}
	return false
}

// Success resets the count.
func (b *Breaker) Success() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.recent = 0
}

// Trips returns how many failures tripped the breaker.
func (b *Breaker) Trips() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.trips
}

// Sender retries a send until it succeeds.
type Sender struct {
	strategy Strategy
}

// Send tries send until it succeeds, asking the strategy before each
// try.
func (s *Sender) Send(send func() error) {
	for {
		if d := s.strategy.Proceed(); d > 0 {
			time.Sleep(d)
		}
		if send() == nil {
			s.strategy.Success()
			return
		}
		s.strategy.Failure()
	}
}
