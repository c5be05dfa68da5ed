// Package refetch holds waiters that fetch a wake channel after a stale
// check, for depend.fetchRechecked: marusama/semaphore's Acquire, which
// loads the state again after the fetch and waits only on an equal one
// (Sem, and Eq with the test written ==), and near misses that wait on
// a channel a Release may never close (Plain, recheckwait's: no re-load;
// Early: the re-load before the fetch; Masked: only the count compared;
// Both: the channel used when the state differs too).
package refetch

import (
	"context"
	"sync"
	"sync/atomic"
)

type Sem struct {
	state uint64
	lock  sync.RWMutex
	ch    chan struct{}
}

func NewSem(limit uint64) *Sem { return &Sem{state: limit << 32, ch: make(chan struct{})} }

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

func (s *Sem) Release(n uint64) int {
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

// Eq is Sem with the re-check written `==`, the wait inside it.
type Eq struct {
	state uint64
	lock  sync.RWMutex
	ch    chan struct{}
}

func NewEq(limit uint64) *Eq { return &Eq{state: limit << 32, ch: make(chan struct{})} }

func (s *Eq) Acquire(ctx context.Context) error {
	done := ctx.Done()
	for {
		state := atomic.LoadUint64(&s.state)
		if count := state&0xFFFFFFFF + 1; count <= state>>32 {
			if atomic.CompareAndSwapUint64(&s.state, state, state>>32<<32+count) {
				return nil
			}
			continue
		}
		s.lock.RLock()
		ch := s.ch
		s.lock.RUnlock()
		if atomic.LoadUint64(&s.state) == state {
			select {
			case <-done:
				return ctx.Err()
			case <-ch:
			}
		}
	}
}

func (s *Eq) Release() {
	for {
		state := atomic.LoadUint64(&s.state)
		if atomic.CompareAndSwapUint64(&s.state, state, state-1) {
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

// Plain is recheckwait's Acquire: it waits on the fetched channel with
// no re-load, and a Release between its load and its fetch leaves it
// waiting on a channel no Release may close.
type Plain struct {
	state uint64
	lock  sync.RWMutex
	ch    chan struct{}
}

func NewPlain(limit uint64) *Plain { return &Plain{state: limit << 32, ch: make(chan struct{})} }

func (s *Plain) Acquire(ctx context.Context) error {
	done := ctx.Done()
	for {
		state := atomic.LoadUint64(&s.state)
		if count := state&0xFFFFFFFF + 1; count <= state>>32 {
			if atomic.CompareAndSwapUint64(&s.state, state, state>>32<<32+count) {
				return nil
			}
			continue
		}
		s.lock.RLock()
		ch := s.ch
		s.lock.RUnlock()
		select {
		case <-done:
			return ctx.Err()
		case <-ch:
		}
	}
}

func (s *Plain) Release() {
	for {
		state := atomic.LoadUint64(&s.state)
		if atomic.CompareAndSwapUint64(&s.state, state, state-1) {
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

// Early re-loads the state before it fetches the channel: a Release
// between the re-load and the fetch is Plain's lost wake-up.
type Early struct {
	state uint64
	lock  sync.RWMutex
	ch    chan struct{}
}

func NewEarly(limit uint64) *Early { return &Early{state: limit << 32, ch: make(chan struct{})} }

func (s *Early) Acquire(ctx context.Context) error {
	done := ctx.Done()
	for {
		state := atomic.LoadUint64(&s.state)
		if count := state&0xFFFFFFFF + 1; count <= state>>32 {
			if atomic.CompareAndSwapUint64(&s.state, state, state>>32<<32+count) {
				return nil
			}
			continue
		}
		if atomic.LoadUint64(&s.state) != state {
			continue
		}
		s.lock.RLock()
		ch := s.ch
		s.lock.RUnlock()
		select {
		case <-done:
			return ctx.Err()
		case <-ch:
		}
	}
}

func (s *Early) Release() {
	for {
		state := atomic.LoadUint64(&s.state)
		if atomic.CompareAndSwapUint64(&s.state, state, state-1) {
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

// Masked compares only the count bits again: a SetLimit between the load
// and the fetch raises the limit, swaps and closes first, and Masked
// waits on the new channel with the count unchanged.
type Masked struct {
	state uint64
	lock  sync.RWMutex
	ch    chan struct{}
}

func NewMasked(limit uint64) *Masked { return &Masked{state: limit << 32, ch: make(chan struct{})} }

func (s *Masked) Acquire(ctx context.Context) error {
	done := ctx.Done()
	for {
		state := atomic.LoadUint64(&s.state)
		if count := state&0xFFFFFFFF + 1; count <= state>>32 {
			if atomic.CompareAndSwapUint64(&s.state, state, state>>32<<32+count) {
				return nil
			}
			continue
		}
		s.lock.RLock()
		ch := s.ch
		s.lock.RUnlock()
		if atomic.LoadUint64(&s.state)&0xFFFFFFFF != state&0xFFFFFFFF {
			continue
		}
		select {
		case <-done:
			return ctx.Err()
		case <-ch:
		}
	}
}

func (s *Masked) Release() {
	for {
		state := atomic.LoadUint64(&s.state)
		if atomic.CompareAndSwapUint64(&s.state, state, state-1) {
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

// SetLimit stores a new limit and wakes the waiters as Release does.
func (s *Masked) SetLimit(limit uint64) {
	for {
		state := atomic.LoadUint64(&s.state)
		if atomic.CompareAndSwapUint64(&s.state, state, limit<<32+state&0xFFFFFFFF) {
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

// Both waits on the fetched channel when the state differs too, before
// it goes round: a Release between its load and its fetch leaves it
// waiting on the new channel.
type Both struct {
	state uint64
	lock  sync.RWMutex
	ch    chan struct{}
}

func NewBoth(limit uint64) *Both { return &Both{state: limit << 32, ch: make(chan struct{})} }

func (s *Both) Acquire(ctx context.Context) error {
	done := ctx.Done()
	for {
		state := atomic.LoadUint64(&s.state)
		if count := state&0xFFFFFFFF + 1; count <= state>>32 {
			if atomic.CompareAndSwapUint64(&s.state, state, state>>32<<32+count) {
				return nil
			}
			continue
		}
		s.lock.RLock()
		ch := s.ch
		s.lock.RUnlock()
		if atomic.LoadUint64(&s.state) != state {
			select {
			case <-done:
				return ctx.Err()
			case <-ch:
			}
			continue
		}
		select {
		case <-done:
			return ctx.Err()
		case <-ch:
		}
	}
}

func (s *Both) Release() {
	for {
		state := atomic.LoadUint64(&s.state)
		if atomic.CompareAndSwapUint64(&s.state, state, state-1) {
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
