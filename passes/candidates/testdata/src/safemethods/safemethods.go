// Package safemethods has exported methods that use a mutex correctly, in
// the various ways the lockset analysis understands: Lock/defer Unlock,
// an embedded mutex, lock helpers, TryLock, and a read lock for readers.
package safemethods

import "sync"

type Stats struct {
	mu    sync.Mutex
	count int
	sum   int
	last  map[string]int
}

func (s *Stats) Add(k string, v int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.count++
	s.sum += v
	s.last[k] = v
}

func (s *Stats) Mean() float64 {
	s.lock()
	defer s.unlock()
	if s.count == 0 {
		return 0
	}
	return float64(s.sum) / float64(s.count)
}

func (s *Stats) Reset() {
	s.lock()
	s.count, s.sum = 0, 0
	clear(s.last)
	s.unlock()
}

// TryAdd adds only if the lock is free.
func (s *Stats) TryAdd(v int) bool {
	if !s.mu.TryLock() {
		return false
	}
	s.count++
	s.sum += v
	s.mu.Unlock()
	return true
}

func (s *Stats) lock()   { s.mu.Lock() }
func (s *Stats) unlock() { s.mu.Unlock() }

// Registry embeds its RWMutex.
type Registry struct {
	sync.RWMutex
	names []string
}

func (r *Registry) Register(name string) {
	r.Lock()
	r.names = append(r.names, name)
	r.Unlock()
}

func (r *Registry) Len() int {
	r.RLock()
	defer r.RUnlock()
	return len(r.names)
}

func (r *Registry) Has(name string) bool {
	r.RLock()
	defer r.RUnlock()
	for _, n := range r.names {
		if n == name {
			return true
		}
	}
	return false
}
