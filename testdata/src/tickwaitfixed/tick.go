package tickwaitfixed

import (
	"sync/atomic"
	"time"
)

// Cache holds one value that a background refresh replaces every
// period, with the error of the fetch that gave it.
type Cache struct {
	cur    atomic.Pointer[entry]
	gets   atomic.Int64 // Gets since the last refresh
	fetch  func() (string, error)
	ticker *time.Ticker
	done   chan struct{}
}

type entry struct {
	val string
	err error
}

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
	c.cur.Store(&entry{v, err})
	c.gets.Store(0)
}

// Get returns the current value and the error of the fetch that gave it.
func (c *Cache) Get() (string, error) {
	e := c.cur.Load()
	c.gets.Add(1)
	return e.val, e.err
}

// Close stops the refresh.
func (c *Cache) Close() {
	c.ticker.Stop()
	close(c.done)
}
