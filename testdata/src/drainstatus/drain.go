package drainstatus

import (
	"sync"
	"sync/atomic"
)

// The maintenance status (Caffeine's drain status).
const (
	idle = iota
	required
	processing
	processingRequired
)

// Cache applies its writes in a maintenance pass.
type Cache struct {
	mu      sync.Mutex // one pass at a time (Caffeine's evictionLock)
	status  atomic.Int32
	pending atomic.Int64 // writes not yet applied
	applied atomic.Int64
}

// Write records a write and asks for a maintenance pass; during one, it
// asks for another.
func (c *Cache) Write() {
	c.pending.Add(1)
	for {
		s := c.status.Load()
		switch s {
		case processing:
			if c.status.CompareAndSwap(s, processingRequired) {
				return
			}
		case processingRequired, required:
			return
		default:
			if c.status.CompareAndSwap(s, required) {
				return
			}
		}
	}
}

// Maintain applies the pending writes, and reports whether another pass
// is required.
func (c *Cache) Maintain() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.status.Store(processing) // want "atomicity violation on Cache\\.status"
	c.applied.Add(c.pending.Swap(0))
	c.status.Store(idle)
	return c.status.Load() == required
}

// Busy reports whether a maintenance pass runs.
func (c *Cache) Busy() bool { return c.status.Load() >= processing }

// Required reports whether writes wait for a maintenance pass.
func (c *Cache) Required() bool { return c.status.Load() == required }
