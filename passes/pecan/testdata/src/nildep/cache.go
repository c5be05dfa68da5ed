// Package nildep has a counter whose Add writes through to a Store that
// the zero Cache lacks, and whose tests build it with a composite literal
// (which a generated driver does not copy) and call it sequentially. The
// generated driver for the candidate pair Add/Add (two critical sections)
// can only build a zero Cache: its calls panic on the nil Store one after
// the other already, so it skips, and the nil dependency is not reported
// as a concurrency bug. Nothing should be reported.
package nildep

import "sync"

// Store receives the counts.
type Store interface{ Put(key string, n int) }

// Cache counts adds and writes each count through to its store.
type Cache struct {
	mu    sync.Mutex
	n     int
	store Store
}

// Add counts key and writes the new count through.
func (c *Cache) Add(key string) {
	c.mu.Lock()
	n := c.n + 1
	c.mu.Unlock()
	c.store.Put(key, n)
	c.mu.Lock()
	c.n = n
	c.mu.Unlock()
}
