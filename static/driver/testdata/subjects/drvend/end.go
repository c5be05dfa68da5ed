// Package drvend has methods that end or rewind a value, beside the
// methods that use it. defaultPolicy.Close is a step of Cache.Close, its
// exported owner's teardown (ristretto's defaultPolicy), and
// Allocator.Reset is called only by AllocatorPool.Get on an allocator it
// then hands out (ristretto's z.Allocator): no driver calls either beside
// the others. ticker.Stop is called at run time too (Cache.Pause) and
// Meter.Reset on a value its caller holds (Restart) and Window.Reset on
// a window others still count in (Roller.Roll): their drivers stay.
// Collector.Init is called only by NewCollector on the collector it makes
// and returns (colly's Collector): no driver calls it; Session.Init,
// which Reopen calls on a session its caller holds, keeps its drivers.
package drvend

import "sync"

type policy interface {
	Push(k int) bool
	Close()
}

type defaultPolicy struct {
	mu     sync.Mutex
	items  chan int
	closed bool
	n      int
}

func newPolicy() *defaultPolicy { return &defaultPolicy{items: make(chan int, 64)} }

func (p *defaultPolicy) Push(k int) bool {
	if p.closed {
		return false
	}
	p.mu.Lock()
	p.n++
	p.mu.Unlock()
	select {
	case p.items <- k:
		return true
	default:
		return false
	}
}

func (p *defaultPolicy) Close() {
	close(p.items)
	p.closed = true
}

type ticker struct {
	mu      sync.Mutex
	stopped bool
	ticks   int
}

func (t *ticker) Tick() {
	if t.stopped {
		return
	}
	t.mu.Lock()
	t.ticks++
	t.mu.Unlock()
}

func (t *ticker) Stop() { t.stopped = true }

// Cache owns a policy and a ticker.
type Cache struct {
	policy policy
	t      *ticker
}

// NewCache builds a cache.
func NewCache() *Cache { return &Cache{policy: newPolicy(), t: &ticker{}} }

// Get counts an access of k.
func (c *Cache) Get(k int) bool {
	c.t.Tick()
	return c.policy.Push(k)
}

// Pause stops the ticker while the cache is in use.
func (c *Cache) Pause() { c.t.Stop() }

// Close ends the cache.
func (c *Cache) Close() { c.policy.Close() }

// Allocator hands out bytes of its buffer.
type Allocator struct {
	mu  sync.Mutex
	off int
	n   int
	buf []byte
}

// NewAllocator makes an allocator of size bytes.
func NewAllocator(size int) *Allocator { return &Allocator{buf: make([]byte, size)} }

// Allocate hands out sz bytes.
func (a *Allocator) Allocate(sz int) []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.off+sz > len(a.buf) {
		a.buf = append(a.buf, make([]byte, sz)...)
	}
	b := a.buf[a.off : a.off+sz]
	a.off += sz
	a.n++
	return b
}

// Reset rewinds the allocator to reuse every byte it handed out.
func (a *Allocator) Reset() {
	a.off = 0
	a.n = 0
}

// AllocatorPool keeps allocators for reuse.
type AllocatorPool struct{ ch chan *Allocator }

// NewAllocatorPool makes a pool of n allocators.
func NewAllocatorPool(n int) *AllocatorPool { return &AllocatorPool{ch: make(chan *Allocator, n)} }

// Get takes an allocator from the pool, rewound, or a new one.
func (p *AllocatorPool) Get(size int) *Allocator {
	select {
	case a := <-p.ch:
		a.Reset()
		return a
	default:
		return NewAllocator(size)
	}
}

// Put gives a back.
func (p *AllocatorPool) Put(a *Allocator) {
	select {
	case p.ch <- a:
	default:
	}
}

// Meter counts events; Reset is called while others count.
type Meter struct {
	mu sync.Mutex
	n  int
}

// Mark counts one event.
func (m *Meter) Mark() {
	m.mu.Lock()
	m.n++
	m.mu.Unlock()
}

// Reset zeroes the count.
func (m *Meter) Reset() { m.n = 0 }

// Restart zeroes m, which its caller holds, and returns it.
func Restart(m *Meter) *Meter {
	m.Reset()
	return m
}

// Window counts events of the current period.
type Window struct {
	mu sync.Mutex
	n  int
}

// Add counts one event.
func (w *Window) Add() {
	w.mu.Lock()
	w.n++
	w.mu.Unlock()
}

// Reset zeroes the window.
func (w *Window) Reset() { w.n = 0 }

// Roller holds the current window, which others count in.
type Roller struct{ cur *Window }

// Roll zeroes the current window, still shared, and returns it.
func (r *Roller) Roll() *Window {
	w := r.cur
	w.Reset()
	return w
}

// Collector fetches pages; Init sets it up, NewCollector alone calls it.
type Collector struct {
	mu      sync.Mutex
	visited map[string]bool
}

// Init initializes the collector's private state.
func (c *Collector) Init() { c.visited = map[string]bool{} }

// NewCollector makes a collector ready for use.
func NewCollector() *Collector {
	c := &Collector{}
	c.Init()
	return c
}

// Visit marks u visited and reports whether it was new.
func (c *Collector) Visit(u string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.visited[u] {
		return false
	}
	c.visited[u] = true
	return true
}

// Session holds a user's state; Reopen re-initializes one still held.
type Session struct {
	mu   sync.Mutex
	vals map[string]int
}

// Init initializes the session's values.
func (s *Session) Init() { s.vals = map[string]int{} }

// Set stores v under k.
func (s *Session) Set(k string, v int) {
	s.mu.Lock()
	s.vals[k] = v
	s.mu.Unlock()
}

// Reopen re-initializes s, which its caller still holds, and returns it.
func Reopen(s *Session) *Session {
	s.Init()
	return s
}
