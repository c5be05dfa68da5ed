package spinclearfixed

import (
	"sync"
	"sync/atomic"
	"time"
)

// Map is a concurrent map whose Clear swaps in an empty map (reugn/async
// v0.10.0's ConcurrentMap).
type Map struct {
	m        atomic.Pointer[sync.Map]
	clearing atomic.Bool
}

// New returns an empty Map.
func New() *Map {
	c := &Map{}
	c.m.Store(&sync.Map{})
	return c
}

// Clear removes every entry.
func (c *Map) Clear() {
	c.clearing.Store(true)
	defer c.clearing.Store(false)
	c.m.Store(&sync.Map{})
}

// Put stores v at k.
func (c *Map) Put(k, v int) { c.smap().Store(k, v) }

// Get returns the value at k.
func (c *Map) Get(k int) (int, bool, error) {
	v, ok := c.smap().Load(k)
	if !ok {
		return 0, false, nil
	}
	return v.(int), true, nil
}

// smap waits out a Clear and returns the current map.
func (c *Map) smap() *sync.Map {
	for {
		if !c.clearing.Load() {
			break
		}
		time.Sleep(time.Nanosecond)
	}
	return c.m.Load()
}
