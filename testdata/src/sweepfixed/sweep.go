package sweepfixed

import "sync"

// Cache maps keys to deadlines.
type Cache struct {
	mu      sync.Mutex
	m       map[string]int
	onEvict func(k string)
}

// New returns an empty cache calling onEvict for each key it evicts.
func New(onEvict func(k string)) *Cache {
	return &Cache{m: map[string]int{}, onEvict: onEvict}
}

// Set sets k's deadline.
func (c *Cache) Set(k string, deadline int) {
	c.mu.Lock()
	c.m[k] = deadline
	c.mu.Unlock()
}

// Len returns the number of entries.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// Sweep evicts the entries whose deadline is before now.
func (c *Cache) Sweep(now int) {
	c.mu.Lock()
	for k, d := range c.m {
		if d < now {
			delete(c.m, k) // before the callback: a Set during it stays
			c.mu.Unlock()
			c.onEvict(k) // without the lock: it may call the cache
			c.mu.Lock()
		}
	}
	c.mu.Unlock()
}
