// Package actalike holds ulule/limiter's memory cache (drivers/store/memory
// cache.go) and variants of its Increment for depend.ActAlike.
package actalike

import (
	"sync"
	"time"
)

type Counter struct {
	mutex      sync.RWMutex
	value      int64
	expiration int64
}

func (c *Counter) Increment(value, expiration int64) (int64, int64) {
	c.mutex.Lock()
	defer c.mutex.Unlock()
	c.value += value
	return c.value, c.expiration
}

type Cache struct {
	counters sync.Map
	misses   int64
}

func (cache *Cache) LoadOrStore(key string, counter *Counter) (*Counter, bool) {
	val, loaded := cache.counters.LoadOrStore(key, counter)
	if val == nil {
		return counter, false
	}
	actual := val.(*Counter)
	return actual, loaded
}

func (cache *Cache) Load(key string) (*Counter, bool) {
	val, ok := cache.counters.Load(key)
	if val == nil || !ok {
		return nil, false
	}
	actual := val.(*Counter)
	return actual, true
}

// Increment is limiter's: the loaded path does what the hit path does.
func (cache *Cache) Increment(key string, value int64, duration time.Duration) (int64, time.Time) {
	expiration := time.Now().Add(duration).UnixNano()
	counter, loaded := cache.Load(key)
	if loaded {
		value, expiration = counter.Increment(value, expiration)
		return value, time.Unix(0, expiration)
	}
	counter, loaded = cache.LoadOrStore(key, &Counter{
		mutex:      sync.RWMutex{},
		value:      value,
		expiration: expiration,
	})
	if loaded {
		value, expiration = counter.Increment(value, expiration)
		return value, time.Unix(0, expiration)
	}
	return value, time.Unix(0, expiration)
}

// IncrementOwn increments its own new counter when another was stored
// first: an increment lost to the map (a true bug).
func (cache *Cache) IncrementOwn(key string, value int64) int64 {
	counter, loaded := cache.Load(key)
	if loaded {
		value, _ = counter.Increment(value, 0)
		return value
	}
	own := &Counter{}
	counter, loaded = cache.LoadOrStore(key, own)
	if loaded {
		value, _ = own.Increment(value, 0)
		return value
	}
	return value
}

// IncrementDirect is Increment on the sync.Map itself.
func (cache *Cache) IncrementDirect(key string, value int64) int64 {
	v, ok := cache.counters.Load(key)
	if ok {
		value, _ = v.(*Counter).Increment(value, 0)
		return value
	}
	v, ok = cache.counters.LoadOrStore(key, &Counter{value: value})
	if ok {
		value, _ = v.(*Counter).Increment(value, 0)
		return value
	}
	return value
}

// IncrementCounted counts the miss before it stores: a goroutine that
// missed only because of the interleaving counts a miss no serial order
// counts.
func (cache *Cache) IncrementCounted(key string, value int64) int64 {
	v, ok := cache.counters.Load(key)
	if ok {
		value, _ = v.(*Counter).Increment(value, 0)
		return value
	}
	cache.misses++
	v, ok = cache.counters.LoadOrStore(key, &Counter{value: value})
	if ok {
		value, _ = v.(*Counter).Increment(value, 0)
		return value
	}
	return value
}

// IncrementTwice adds twice what a hit adds once on the loaded path.
func (cache *Cache) IncrementTwice(key string, value int64) int64 {
	v, ok := cache.counters.Load(key)
	if ok {
		value, _ = v.(*Counter).Increment(value, 0)
		return value
	}
	v, ok = cache.counters.LoadOrStore(key, &Counter{value: value})
	if ok {
		value, _ = v.(*Counter).Increment(2*value, 0)
		return value
	}
	return value
}

// loadFresh says it found a counter when it made one.
func (cache *Cache) loadFresh(key string) (*Counter, bool) {
	val, ok := cache.counters.Load(key)
	if !ok {
		return &Counter{}, true
	}
	return val.(*Counter), true
}

// IncrementFresh trusts loadFresh's flag.
func (cache *Cache) IncrementFresh(key string, value int64) int64 {
	counter, loaded := cache.loadFresh(key)
	if loaded {
		value, _ = counter.Increment(value, 0)
		return value
	}
	counter, loaded = cache.LoadOrStore(key, &Counter{value: value})
	if loaded {
		value, _ = counter.Increment(value, 0)
		return value
	}
	return value
}

// IncrementStore stores its new counter over whatever is there.
func (cache *Cache) IncrementStore(key string, value int64) int64 {
	v, ok := cache.counters.Load(key)
	if ok {
		value, _ = v.(*Counter).Increment(value, 0)
		return value
	}
	cache.counters.Store(key, &Counter{value: value})
	return value
}

// IncrementNoted notes every LoadOrStore's result before it tests it: a
// goroutine that missed only because of the interleaving notes a
// creation race no serial order has.
func (cache *Cache) IncrementNoted(key string, value int64) int64 {
	v, ok := cache.counters.Load(key)
	if ok {
		value, _ = v.(*Counter).Increment(value, 0)
		return value
	}
	v, ok = cache.counters.LoadOrStore(key, &Counter{value: value})
	note(ok)
	if ok {
		value, _ = v.(*Counter).Increment(value, 0)
		return value
	}
	return value
}

func note(bool) {}

// IncrementLogged notes every Load's result before it tests it: a
// goroutine that missed only because of the interleaving notes a miss.
func (cache *Cache) IncrementLogged(key string, value int64) int64 {
	v, ok := cache.counters.Load(key)
	note(ok)
	if ok {
		value, _ = v.(*Counter).Increment(value, 0)
		return value
	}
	v, ok = cache.counters.LoadOrStore(key, &Counter{value: value})
	if ok {
		value, _ = v.(*Counter).Increment(value, 0)
		return value
	}
	return value
}
