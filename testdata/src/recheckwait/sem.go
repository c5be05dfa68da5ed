package recheckwait

import (
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
		<-ch
	}
}

func (s *Sem) Release() {
	for {
		state := atomic.LoadUint64(&s.state) // want "atomicity violation on Sem\\.state"
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
