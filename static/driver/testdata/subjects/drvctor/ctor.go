// Package drvctor has types that their tests build in ways a driver
// cannot guess: a pool whose constructor fails on the constant arguments
// the tests pass first, and a bus built by a New that returns an
// interface.
package drvctor

import (
	"errors"
	"sync"
)

// Pool counts puts per key; puts is updated outside the lock.
type Pool struct {
	mu    sync.Mutex
	items map[string]int
	puts  int
	name  string
}

// Option configures a Pool.
type Option func(*Pool)

// WithName names the pool.
func WithName(n string) Option { return func(p *Pool) { p.name = n } }

// NewPool returns a pool of size > 0.
func NewPool(size int, opts ...Option) (*Pool, error) {
	if size <= 0 {
		return nil, errors.New("size")
	}
	p := &Pool{items: map[string]int{}}
	for _, o := range opts {
		o(p)
	}
	return p, nil
}

// Put adds one to k.
func (p *Pool) Put(k string) {
	p.mu.Lock()
	p.items[k]++
	p.mu.Unlock()
	p.puts++
}

// Name is the pool's name.
func (p *Pool) Name() string { return p.name }

// Bus is what New returns.
type Bus interface {
	Publish(topic string)
	Subscribe(topic string, fn func())
}

// EventBus is the Bus New returns; published is updated outside the lock.
type EventBus struct {
	mu        sync.Mutex
	handlers  map[string][]func()
	published int
}

// New returns an empty bus.
func New() Bus { return &EventBus{handlers: map[string][]func(){}} }

// Subscribe adds fn to topic.
func (b *EventBus) Subscribe(topic string, fn func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.handlers[topic] = append(b.handlers[topic], fn)
	b.published = 0
}

// Publish calls topic's handlers.
func (b *EventBus) Publish(topic string) {
	b.mu.Lock()
	hs := b.handlers[topic]
	b.mu.Unlock()
	for _, h := range hs {
		h()
	}
	b.published++
}

// Counter counts; Inc forgets the lock Get takes.
type Counter struct {
	mu sync.Mutex
	n  int
}

// NewCounter returns a zero counter.
func NewCounter() *Counter { return &Counter{} }

// Inc adds one.
func (c *Counter) Inc() { c.n++ }

// Get returns the count.
func (c *Counter) Get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// meter is embedded in Timer; mark forgets the lock marks takes.
type meter struct {
	mu sync.Mutex
	n  int
}

// Mark counts one.
func (m *meter) Mark() { m.n++ }

// Marks returns the count.
func (m *meter) Marks() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.n
}

// Timer is what the tests build: its Mark is meter's.
type Timer struct {
	*meter
	name string
}

// NewTimer returns a named timer.
func NewTimer(name string) *Timer { return &Timer{meter: &meter{}, name: name} }
