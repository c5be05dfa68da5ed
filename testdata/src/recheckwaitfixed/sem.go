package recheckwaitfixed

import (
	"context"
	"sync"
	"sync/atomic"
)

// Sem is marusama/semaphore v2.5.0's: the count in the low 32 bits of
// state, the limit in the high ones, and a channel that each Release
// swaps for a new one and closes, waking the waiters.
type Sem struct {
	state uint64
	lock  sync.RWMutex
	ch    chan struct{}
}

func New(limit int) *Sem {
	return &Sem{state: uint64(limit) << 32, ch: make(chan struct{})}
}

func (s *Sem) Acquire() {
	for {
		state := atomic.LoadUint64(&s.state)
		count, limit := state&0xFFFFFFFF, state>>32
		if count+1 <= limit {
			if atomic.CompareAndSwapUint64(&s.state, state, limit<<32+count+1) {
				return
			}
			continue
		}
		s.lock.RLock()
		ch := s.ch
		s.lock.RUnlock()
		// A Release since the load may have closed the channel before
		// the one just read: its change shows in the state.
		if atomic.LoadUint64(&s.state) != state {
			continue
		}
		<-ch
	}
}

func (s *Sem) Release() {
	for {
		state := atomic.LoadUint64(&s.state)
		if state&0xFFFFFFFF == 0 {
			panic("release without acquire")
		}
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

// SetLimit is marusama/semaphore's: it CASes the new limit in and wakes
// the waiters as Release does.
func (s *Sem) SetLimit(limit int) {
	for {
		state := atomic.LoadUint64(&s.state)
		if atomic.CompareAndSwapUint64(&s.state, state, uint64(limit)<<32+state&0xFFFFFFFF) {
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

// Count is the number of units held.
func (s *Sem) Count() int {
	return int(atomic.LoadUint64(&s.state) & 0xFFFFFFFF)
}

// AcquireCtx is marusama/semaphore v2.5.0's Acquire whole: n units, and
// a context whose Done channel the wait selects on beside the
// broadcast channel.
func (s *Sem) AcquireCtx(ctx context.Context, n int) error {
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
		count, limit := state&0xFFFFFFFF, state>>32
		if count+uint64(n) <= limit {
			if atomic.CompareAndSwapUint64(&s.state, state, limit<<32+count+uint64(n)) {
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
