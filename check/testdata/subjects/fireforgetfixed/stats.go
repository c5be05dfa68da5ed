package fireforgetfixed

import "sync/atomic"

// Stats counts hits.
type Stats struct {
	hits atomic.Int64
}

// HitAsync counts a hit in the background; the caller does not wait.
func (s *Stats) HitAsync() {
	go func() {
		s.hits.Add(1)
	}()
}

// Hits returns the hits counted so far.
func (s *Stats) Hits() int {
	return int(s.hits.Load())
}
