package publishtakefixed

import "sync"

// Store keeps a token bucket per key.
type Store struct {
	mu   sync.RWMutex
	data map[string]*bucket
}

type bucket struct {
	mu        sync.Mutex
	available int
}

// New returns a store whose buckets hold max tokens.
func New() *Store { return &Store{data: map[string]*bucket{}} }

// Take takes a token for key, making its bucket of max tokens on the
// key's first use, and says whether there was one.
func (s *Store) Take(key string, max int) bool {
	s.mu.RLock()
	b, ok := s.data[key]
	s.mu.RUnlock()
	if ok {
		return b.take()
	}
	s.mu.Lock()
	b = newBucket(max)
	s.data[key] = b
	s.mu.Unlock()
	return b.take()
}

func newBucket(n int) *bucket { return &bucket{available: n} }

func (b *bucket) take() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.available > 0 {
		b.available--
		return true
	}
	return false
}
