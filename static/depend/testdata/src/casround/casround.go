// Package casround holds compare-and-swap loops for depend.CASRound and
// check's casRetried: go-lock's rTryLock (a loop whose failure goes back
// to the load unless it only tries), lockfree's RingBuffer.Enqueue (a
// retry by re-calling itself), and two that carry something of the
// failed round or never come back.
package casround

import (
	"context"
	"sync"
	"sync/atomic"
)

type Mutex struct{ state int32 }

// rTryLock is go-lock's CASMutex.rTryLock, without its broadcast channel.
func (m *Mutex) rTryLock(try bool) bool {
	for {
		n := atomic.LoadInt32(&m.state)
		if n >= 0 {
			if atomic.CompareAndSwapInt32(&m.state, n, n+1) {
				return true
			}
		}
		if try {
			return false
		}
	}
}

// counted returns how many rounds failed: a value of the failed round
// lives on into the next.
func (m *Mutex) counted() int {
	for i := 0; ; i++ {
		n := atomic.LoadInt32(&m.state)
		if atomic.CompareAndSwapInt32(&m.state, n, n+1) {
			return i
		}
	}
}

// tryInc tries once and returns the CAS's outcome to its caller.
func (m *Mutex) tryInc() bool {
	n := atomic.LoadInt32(&m.state)
	return atomic.CompareAndSwapInt32(&m.state, n, n+1)
}

type Queue[V any] interface {
	Enqueue(v V) bool
	Dequeue() (V, bool)
}

// New returns a Ring as a Queue: Enqueue is called only through the
// interface, as lockfree's tests call RingBuffer[Value]'s.
func New[V any]() Queue[V] { return &Ring[V]{} }

type Ring[V any] struct {
	state atomic.Uint64
	slot  atomic.Pointer[V]
}

// Enqueue is lockfree's RingBuffer.Enqueue's retry: it calls itself again,
// with v, whose address it stores only once its CAS swapped.
func (r *Ring[V]) Enqueue(v V) bool {
	s := r.state.Load()
	if r.state.CompareAndSwap(s, s+1) {
		r.slot.Store(&v)
		return true
	}
	return r.Enqueue(v)
}

// Dequeue is lockfree's RingBuffer.Dequeue: it reads the slot between its
// load and its CAS, and calls itself again when the CAS fails.
func (r *Ring[V]) Dequeue() (V, bool) {
	s := r.state.Load()
	var v V
	val := r.slot.Load()
	if r.state.CompareAndSwap(s, s+1) {
		if val != nil {
			v = *val
		}
		return v, true
	}
	return r.Dequeue()
}

// Sem is marusama/semaphore's (issue 26, trial 33): Acquire loads the
// state and CASes an acquire against it; when full it fetches the
// broadcast channel under the read lock and loads the state again,
// trying again when it changed, before it waits on the channel that the
// next Release closes.
type Sem struct {
	state uint64
	lock  sync.RWMutex
	ch    chan struct{}
}

func (s *Sem) Acquire(ctx context.Context, n uint64) error {
	var done <-chan struct{}
	if ctx != nil {
		done = ctx.Done()
	}
	for {
		select {
		case <-done:
			return ctx.Err()
		default:
		}
		state := atomic.LoadUint64(&s.state)
		if count := state&0xFFFFFFFF + n; count <= state>>32 {
			if atomic.CompareAndSwapUint64(&s.state, state, state>>32<<32+count) {
				return nil
			}
			continue
		}
		s.lock.RLock()
		ch := s.ch
		s.lock.RUnlock()
		if atomic.LoadUint64(&s.state) != state {
			continue
		}
		select {
		case <-done:
			return ctx.Err()
		case <-ch:
		}
	}
}

func (s *Sem) Release(n uint64) {
	for {
		state := atomic.LoadUint64(&s.state)
		if atomic.CompareAndSwapUint64(&s.state, state, state-n) {
			ch := make(chan struct{})
			s.lock.Lock()
			old := s.ch
			s.ch = ch
			s.lock.Unlock()
			close(old)
			return
		}
	}
}

// SemKeep is Sem (Wait its Acquire, Post its Release) whose Post swaps
// the channel without closing the one it replaces: a waiter that fetched
// it before the swap waits for ever (the wake-up is lost), so its
// fetch's value matters.
type SemKeep struct {
	state uint64
	lock  sync.RWMutex
	ch    chan struct{}
}

func (s *SemKeep) Wait() {
	for {
		state := atomic.LoadUint64(&s.state)
		if count := state&0xFFFFFFFF + 1; count <= state>>32 {
			if atomic.CompareAndSwapUint64(&s.state, state, state>>32<<32+count) {
				return
			}
			continue
		}
		s.lock.RLock()
		ch := s.ch
		s.lock.RUnlock()
		if atomic.LoadUint64(&s.state) != state {
			continue
		}
		<-ch
	}
}

func (s *SemKeep) Post(n uint64) {
	for {
		state := atomic.LoadUint64(&s.state)
		if atomic.CompareAndSwapUint64(&s.state, state, state-n) {
			s.lock.Lock()
			s.ch = make(chan struct{})
			s.lock.Unlock()
			return
		}
	}
}

// tally re-loads as Acquire does but counts its rounds: a value of the
// round lives on into the next.
func (s *Sem) tally() int {
	for tries := 0; ; tries++ {
		state := atomic.LoadUint64(&s.state)
		if atomic.LoadUint64(&s.state) != state {
			continue
		}
		if atomic.CompareAndSwapUint64(&s.state, state, state+1) {
			return tries
		}
	}
}

// above re-loads and compares with a constant, not with the first load.
func (s *Sem) above() {
	for {
		state := atomic.LoadUint64(&s.state)
		if atomic.LoadUint64(&s.state) > 10 {
			continue
		}
		if atomic.CompareAndSwapUint64(&s.state, state, state+1) {
			return
		}
	}
}

// RelSem is marusama/semaphore's own Release (issue 26, trial 33's :176
// asv): a panic inside its loop makes the CAS decide the swap (without
// it the swap post-dominates the CAS, which only repeats). Acquire is
// Sem's.
type RelSem struct {
	state uint64
	lock  sync.RWMutex
	ch    chan struct{}
}

func (s *RelSem) Acquire(ctx context.Context, n uint64) error {
	var done <-chan struct{}
	if ctx != nil {
		done = ctx.Done()
	}
	for {
		select {
		case <-done:
			return ctx.Err()
		default:
		}
		state := atomic.LoadUint64(&s.state)
		if count := state&0xFFFFFFFF + n; count <= state>>32 {
			if atomic.CompareAndSwapUint64(&s.state, state, state>>32<<32+count) {
				return nil
			}
			continue
		}
		s.lock.RLock()
		ch := s.ch
		s.lock.RUnlock()
		if atomic.LoadUint64(&s.state) != state {
			continue
		}
		select {
		case <-done:
			return ctx.Err()
		case <-ch:
		}
	}
}

func (s *RelSem) Release(n uint64) int {
	for {
		state := atomic.LoadUint64(&s.state)
		count := state & 0xFFFFFFFF
		if count < n {
			panic("release without acquire")
		}
		if atomic.CompareAndSwapUint64(&s.state, state, state-n) {
			ch := make(chan struct{})
			s.lock.Lock()
			old := s.ch
			s.ch = ch
			s.lock.Unlock()
			close(old)
			return int(count)
		}
	}
}

// RelKeep is RelSem whose Release swaps the channel without closing the
// one it replaces: a waiter holding it waits for ever.
type RelKeep struct {
	state uint64
	lock  sync.RWMutex
	ch    chan struct{}
}

func (s *RelKeep) Acquire() {
	for {
		state := atomic.LoadUint64(&s.state)
		if count := state&0xFFFFFFFF + 1; count <= state>>32 {
			if atomic.CompareAndSwapUint64(&s.state, state, state>>32<<32+count) {
				return
			}
			continue
		}
		s.lock.RLock()
		ch := s.ch
		s.lock.RUnlock()
		if atomic.LoadUint64(&s.state) != state {
			continue
		}
		<-ch
	}
}

func (s *RelKeep) Release(n uint64) {
	for {
		state := atomic.LoadUint64(&s.state)
		if state&0xFFFFFFFF < n {
			panic("release without acquire")
		}
		if atomic.CompareAndSwapUint64(&s.state, state, state-n) {
			s.lock.Lock()
			s.ch = make(chan struct{})
			s.lock.Unlock()
			return
		}
	}
}

// RelLeave is RelSem whose waiter takes a wake-up for its grant: it
// leaves its loop on the receive. A Release's broadcast decided on a
// stale state lets a waiter go that a serial order would keep waiting.
type RelLeave struct {
	state uint64
	lock  sync.RWMutex
	ch    chan struct{}
}

func (s *RelLeave) Acquire() {
	for {
		state := atomic.LoadUint64(&s.state)
		if count := state&0xFFFFFFFF + 1; count <= state>>32 {
			if atomic.CompareAndSwapUint64(&s.state, state, state>>32<<32+count) {
				return
			}
			continue
		}
		s.lock.RLock()
		ch := s.ch
		s.lock.RUnlock()
		if atomic.LoadUint64(&s.state) != state {
			continue
		}
		<-ch
		return
	}
}

func (s *RelLeave) Release(n uint64) {
	for {
		state := atomic.LoadUint64(&s.state)
		if state&0xFFFFFFFF < n {
			panic("release without acquire")
		}
		if atomic.CompareAndSwapUint64(&s.state, state, state-n) {
			ch := make(chan struct{})
			s.lock.Lock()
			old := s.ch
			s.ch = ch
			s.lock.Unlock()
			close(old)
			return
		}
	}
}

// RelSized is RelSem whose Release makes the new channel with a capacity
// taken from the state it loaded: the load's value flows into the swap's
// channel, not only into whether the swap runs.
type RelSized struct {
	state uint64
	lock  sync.RWMutex
	ch    chan struct{}
}

func (s *RelSized) Acquire() {
	for {
		state := atomic.LoadUint64(&s.state)
		if count := state&0xFFFFFFFF + 1; count <= state>>32 {
			if atomic.CompareAndSwapUint64(&s.state, state, state>>32<<32+count) {
				return
			}
			continue
		}
		s.lock.RLock()
		ch := s.ch
		s.lock.RUnlock()
		if atomic.LoadUint64(&s.state) != state {
			continue
		}
		<-ch
	}
}

func (s *RelSized) Release(n uint64) {
	for {
		state := atomic.LoadUint64(&s.state)
		if state&0xFFFFFFFF < n {
			panic("release without acquire")
		}
		if atomic.CompareAndSwapUint64(&s.state, state, state-n) {
			ch := make(chan struct{}, int(state&1))
			s.lock.Lock()
			old := s.ch
			s.ch = ch
			s.lock.Unlock()
			close(old)
			return
		}
	}
}
