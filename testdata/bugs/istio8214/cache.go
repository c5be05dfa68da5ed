// Package istio8214 reduces istio/istio#8214
// (https://github.com/istio/istio/pull/8214, fix data race with
// read/write stats in lruCache).
//
// Mixer's check cache counts its writes with atomic.AddUint64 on
// c.stats.Writes, and after each Set the instrumented Cache records the
// stats: lruCache.Stats returns a copy of c.stats, a plain read. Two
// concurrent Check calls: one goroutine's Stats reads Writes while the
// other's Set adds to it atomically, a data race (an atomic write
// against a plain read).
//
// Upstream fix: Stats reads each counter with atomic.LoadUint64.
package istio8214

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

func (c *lruCache) Stats() Stats { return c.stats }

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
