package dropkey

import "sync"

// Cache holds entries by name.
type Cache struct {
	mu      sync.RWMutex
	entries map[string]int
	drops   int
	// between runs after the lookup, under the read lock (a test's hook,
	// where tally's subscope reports the closed scope it found).
	between func()
}

// New returns a cache holding the names given.
func New(names ...string) *Cache {
	c := &Cache{entries: map[string]int{}}
	for i, n := range names {
		c.entries[n] = i
	}
	return c
}

// Drop removes name, counting each entry removed. It looks the name up
// under the read lock, so that a Drop of an absent name takes no write
// lock, as tally's subscope does.
func (c *Cache) Drop(name string) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	_, ok := c.entries[name] // want "atomicity violation on map\\[string\\]int: .*check-then-act: the value read at cache\\.go:30 decides the call of Cache\\.removeWithRLock"
	if c.between != nil {
		c.between()
	}
	if ok {
		c.removeWithRLock(name)
	}
}

// removeWithRLock deletes name under the write lock, called and returning
// with the read lock held (tally's scopeRegistry.removeWithRLock).
func (c *Cache) removeWithRLock(name string) {
	c.mu.RUnlock()
	defer c.mu.RLock()
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, name)
	c.drops++
}

// Drops is how many entries Drop removed.
func (c *Cache) Drops() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.drops
}

// Len is how many entries are held.
func (c *Cache) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.entries)
}
