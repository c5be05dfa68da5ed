package tickwait

import (
	"sync/atomic"
	"time"
)

// Cache holds one value that a background refresh replaces every
// period, with the error of the fetch that gave it.
type Cache struct {
	val    atomic.Value // string
	err    atomic.Value // holder
	gets   atomic.Int64 // Gets since the last refresh
	fetch  func() (string, error)
	ticker *time.Ticker
	done   chan struct{}
}

type holder struct{ err error }

// New fetches the first value and refreshes it every period.
func New(fetch func() (string, error), period time.Duration) *Cache {
	c := &Cache{fetch: fetch, ticker: time.NewTicker(period), done: make(chan struct{})}
	c.store(fetch())
	go c.refresh()
	return c
}

func (c *Cache) refresh() {
	for {
		select {
		case <-c.ticker.C:
			c.store(c.fetch())
		case <-c.done:
			return
		}
	}
}

func (c *Cache) store(v string, err error) {
	c.val.Store(v) // want "atomic-set-serializability violation on Cache\\.val, Cache\\.err"
	c.err.Store(holder{err})
	c.gets.Store(0)
}

// Get returns the current value and the error of the fetch that gave it.
func (c *Cache) Get() (string, error) {
	v := c.val.Load().(string)
	c.gets.Add(1)
	return v, c.err.Load().(holder).err
}

// Close stops the refresh.
func (c *Cache) Close() {
	c.ticker.Stop()
	close(c.done)
}
