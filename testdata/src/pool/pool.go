package pool

import (
	"errors"
	"sync"
)

// ErrClosed is returned by Borrow on a closed pool.
var ErrClosed = errors.New("pool: closed")

// Factory makes and prepares pooled objects.
type Factory[T any] interface {
	Make() (T, error)
	Activate(T) error
}

// Pool is a pool of reusable objects.
type Pool[T any] struct {
	mu      sync.Mutex
	factory Factory[T]
	idle    []T
	active  int
	closed  bool
}

// New returns an empty pool that makes objects with f.
func New[T any](f Factory[T]) *Pool[T] { return &Pool[T]{factory: f} }

// Borrow returns an idle object, or a new one if none is idle.
func (p *Pool[T]) Borrow() (T, error) {
	var zero T
	p.mu.Lock()
	if p.closed { // want "atomic-set-serializability violation on "
		p.mu.Unlock()
		return zero, ErrClosed
	}
	p.active++
	if n := len(p.idle); n > 0 {
		obj := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return obj, nil
	}
	p.mu.Unlock()

	obj, err := p.factory.Make() // want "data race on " "atomicity violation on "
	if err != nil {
		return zero, err
	}
	if err := p.factory.Activate(obj); err != nil { // want "data race on "
		return zero, err
	}
	return obj, nil
}

// Return gives obj back to the pool.
func (p *Pool[T]) Return(obj T) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.active--
	if !p.closed {
		p.idle = append(p.idle, obj)
	}
}

// Close closes the pool and drops its idle objects and its factory.
func (p *Pool[T]) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	p.idle = nil
	p.factory = nil
}

// SetFactory replaces the factory; idle objects of the old one are dropped.
func (p *Pool[T]) SetFactory(f Factory[T]) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.idle = nil
	p.factory = f
}
