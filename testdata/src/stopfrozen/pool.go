package stopfrozen

import (
	"errors"
	"sync"
	"sync/atomic"
)

const (
	opened = iota
	closed
)

// ErrClosed is Submit's answer once the pool is released.
var ErrClosed = errors.New("pool closed")

// Pool is ants's Pool (v2.12.1), unbounded: Submit checks IsClosed on a
// fast path, then takes an idle worker from the stack under the lock or
// starts one; a worker puts itself back after its task only after
// re-checking IsClosed under the lock (revert); Release CASes the state
// to closed and resets the stack under the lock, ending its workers.
type Pool struct {
	state   int32
	lock    sync.Mutex
	workers *stack
}

type stack struct{ items []*worker }

type worker struct {
	pool *Pool
	task chan func()
}

// New returns an open pool.
func New() *Pool { return &Pool{workers: &stack{}} }

func (s *stack) len() int { return len(s.items) }

func (s *stack) insert(w *worker) {
	s.items = append(s.items, w)
}

func (s *stack) detach() *worker {
	l := s.len()
	if l == 0 {
		return nil
	}
	w := s.items[l-1]
	s.items[l-1] = nil
	s.items = s.items[:l-1]
	return w
}

func (s *stack) reset() {
	for i := 0; i < s.len(); i++ {
		s.items[i].task <- nil
		s.items[i] = nil
	}
	s.items = s.items[:0]
}

func (w *worker) run() {
	go func() {
		for f := range w.task {
			if f == nil {
				return
			}
			f()
			if !w.pool.revert(w) {
				return
			}
		}
	}()
}

// IsClosed reports whether the pool was released.
func (p *Pool) IsClosed() bool {
	return atomic.LoadInt32(&p.state) == closed // want "atomic-set-serializability violation on Pool\\.state, stack\\.items: .*check-then-act: the value read at pool\\.go:79 decides the call of Pool\\.retrieve"
}

// Submit runs task on an idle worker, or a new one.
func (p *Pool) Submit(task func()) error {
	if p.IsClosed() {
		return ErrClosed
	}
	w := p.retrieve()
	w.task <- task
	return nil
}

func (p *Pool) retrieve() *worker {
	p.lock.Lock()
	w := p.workers.detach()
	if w == nil {
		w = &worker{pool: p, task: make(chan func(), 1)}
		w.run()
	}
	p.lock.Unlock()
	return w
}

// revert puts w back among the idle workers, with no look at the state
// (ants before its issue 113): a worker that a Submit overlapping Release
// started puts itself into the stack Release has reset, and waits there
// for good.
func (p *Pool) revert(w *worker) bool {
	p.lock.Lock()
	p.workers.insert(w)
	p.lock.Unlock()
	return true
}

// Release closes the pool and ends its idle workers.
func (p *Pool) Release() {
	if !atomic.CompareAndSwapInt32(&p.state, opened, closed) {
		return
	}
	p.lock.Lock()
	p.workers.reset()
	p.lock.Unlock()
}
