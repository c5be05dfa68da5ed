package relock

import "sync"

// Cache holds entries that a loader refreshes when they are stale.
type Cache struct {
	mu      sync.RWMutex
	stale   bool
	entries map[string]int
	load    func() map[string]int
}

// New returns a cache that loads its entries with load.
func New(load func() map[string]int) *Cache {
	return &Cache{entries: load(), load: load}
}

// Get returns the entry of key, refreshing the entries first if they are
// stale.
func (c *Cache) Get(key string) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.stale { // want "double lock"
		c.refresh()
	}
	return c.entries[key]
}

// refresh reloads the entries.
func (c *Cache) refresh() {
	entries := c.load()
	c.mu.Lock()
	c.entries = entries
	c.stale = false
	c.mu.Unlock()
}

// Invalidate marks the entries stale.
func (c *Cache) Invalidate() {
	c.mu.Lock()
	c.stale = true
	c.mu.Unlock()
}
