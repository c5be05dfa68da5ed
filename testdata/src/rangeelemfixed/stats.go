package rangeelemfixed

import "sync"

// Stats counts events by kind.
type Stats struct {
	mu     sync.Mutex
	counts []int
}

// New returns counters for n kinds.
func New(n int) *Stats { return &Stats{counts: make([]int, n)} }

// Record counts one event of kind k.
func (s *Stats) Record(k int) {
	s.mu.Lock()
	s.counts[k]++
	s.mu.Unlock()
}

// Total is the number of events recorded.
func (s *Stats) Total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := 0
	for _, c := range s.counts {
		t += c
	}
	return t
}
