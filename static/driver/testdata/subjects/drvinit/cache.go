// Package drvinit is phuslu/lru's sharded cache in small: each shard
// holds a mutex, and its Init writes without it, called only by
// NewCache on each shard before the cache is returned; shard is
// unexported and reachable by no user, so no driver calls Init beside
// Len. Reset also writes without the lock but is called at run time
// (Cache.Clear): its drivers stay.
package drvinit

import "sync"

type shard struct {
	mu sync.Mutex
	n  int
	xs []int
}

func (s *shard) Init(size int) {
	s.xs = make([]int, 0, size)
	s.n = 0
}

func (s *shard) Reset() { s.n = 0 }

func (s *shard) Add(x int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.xs = append(s.xs, x)
	s.n++
}

func (s *shard) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// Cache is a set of shards.
type Cache struct {
	shards []shard
}

// NewCache makes a cache of n shards.
func NewCache(n int) *Cache {
	c := &Cache{shards: make([]shard, n)}
	for i := range c.shards {
		c.shards[i].Init(8)
	}
	return c
}

// Add adds x to its shard.
func (c *Cache) Add(x int) { c.shards[x%len(c.shards)].Add(x) }

// Len counts the elements.
func (c *Cache) Len() (n int) {
	for i := range c.shards {
		n += c.shards[i].Len()
	}
	return n
}

// Clear empties the counts.
func (c *Cache) Clear() {
	for i := range c.shards {
		c.shards[i].Reset()
	}
}

// Gater is what NewGate hands out: a gate reaches the user through it,
// Size included, so Size keeps its drivers (a method named Init… would
// be reuseHook's: the package calls it only on a gate it then hands out).
type Gater interface {
	Size(size int)
	Open() int
}

type gate struct {
	mu sync.Mutex
	n  int
}

func (g *gate) Size(size int) { g.n = size }

func (g *gate) Open() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.n
}

// NewGate makes a gate.
func NewGate() Gater {
	g := &gate{}
	g.Size(1)
	return g
}
