// Package istio8214fixed is istio8214 with the upstream fix of
// https://github.com/istio/istio/pull/8214: Stats reads each counter with
// atomic.LoadUint64.
package istio8214fixed

import (
	"sync"
	"sync/atomic"
)

// Stats are the cache's counters.
type Stats struct {
	Writes uint64
	Hits   uint64
}

type lruCache struct {
	mu    sync.Mutex
	items map[string]string
	stats Stats
}

func newLRUCache() *lruCache { return &lruCache{items: map[string]string{}} }

func (c *lruCache) SetWithExpiration(key, value string) {
	c.mu.Lock()
	c.items[key] = value
	c.mu.Unlock()
	atomic.AddUint64(&c.stats.Writes, 1)
}

func (c *lruCache) Stats() Stats {
	return Stats{
		Writes: atomic.LoadUint64(&c.stats.Writes),
		Hits:   atomic.LoadUint64(&c.stats.Hits),
	}
}

// gauge is an exported metric.
type gauge struct {
	mu    sync.Mutex
	value float64
}

func (g *gauge) Set(v float64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.value = v
}

func (g *gauge) Value() float64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.value
}

// Cache records the lruCache's stats as metrics after each Set.
type Cache struct {
	cache  *lruCache
	writes gauge
}

func (cc *Cache) Set(key, value string) {
	cc.cache.SetWithExpiration(key, value)
	cc.recordStats()
}

func (cc *Cache) recordStats() {
	s := cc.cache.Stats()
	cc.writes.Set(float64(s.Writes))
}

type grpcServer struct{ cache *Cache }

func (s *grpcServer) Check(key string) {
	if s.cache != nil {
		s.cache.Set(key, "OK")
	}
}
