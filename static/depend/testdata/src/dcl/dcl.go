// Package dcl holds double-checked locking (lockedRecheck): bigcache's
// shard.del (M) and shimingyah/pool's decrRef (Pool.Put), and the near
// misses that stay judged.
package dcl

import (
	"errors"
	"sync"
	"sync/atomic"
)

type M struct {
	mu      sync.RWMutex
	index   map[uint64]uint32
	entries [][]byte
}

func (s *M) Set(k uint64, v []byte) {
	s.mu.Lock()
	s.entries = append(s.entries, v)        // m set entries
	s.index[k] = uint32(len(s.entries) - 1) // m set index
	s.mu.Unlock()
}

func (s *M) check(i int) error {
	if i >= len(s.entries) || s.entries[i] == nil { // m check entries
		return errors.New("gone")
	}
	return nil
}

// Del checks under the read lock, then again, in the same order, under
// the write lock before the delete.
func (s *M) Del(k uint64) error {
	s.mu.RLock()
	{
		i := s.index[k] // m pre index
		if i == 0 {
			s.mu.RUnlock()
			return errors.New("not found")
		}
		if err := s.check(int(i)); err != nil {
			s.mu.RUnlock()
			return err
		}
	}
	s.mu.RUnlock()

	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.index[k] // m again index
	if i == 0 {
		return errors.New("not found")
	}
	if err := s.check(int(i)); err != nil {
		return err
	}
	delete(s.index, k)
	s.entries[i] = nil
	return nil
}

// DelOtherResult re-checks likewise but answers the locked miss otherwise
// than the pre-check did: no serial run returns it after a stale pass.
func (s *M) DelOtherResult(k uint64) error {
	s.mu.RLock()
	{
		i := s.index[k] // o pre index
		if i == 0 {
			s.mu.RUnlock()
			return nil
		}
		if err := s.check(int(i)); err != nil {
			s.mu.RUnlock()
			return err
		}
	}
	s.mu.RUnlock()

	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.index[k] // o again index
	if i == 0 {
		return errors.New("not found")
	}
	if err := s.check(int(i)); err != nil {
		return err
	}
	delete(s.index, k)
	s.entries[i] = nil
	return nil
}

const maxIdle, maxActive = 2, 16

type Pool struct {
	mu      sync.Mutex
	slots   [maxActive]*int
	current int32
	ref     int32
	other   int32
}

func (p *Pool) Get() {
	atomic.AddInt32(&p.ref, 1) // pool get ref
	p.mu.Lock()
	atomic.StoreInt32(&p.current, 2*atomic.LoadInt32(&p.current)) // pool grow
	p.mu.Unlock()
}

// Put shrinks when ref falls to 0, re-checking ref under the lock.
func (p *Pool) Put() {
	newRef := atomic.AddInt32(&p.ref, -1)                      // pool put ref
	if newRef == 0 && atomic.LoadInt32(&p.current) > maxIdle { // pool put current
		p.mu.Lock()
		if atomic.LoadInt32(&p.ref) == 0 {
			atomic.StoreInt32(&p.current, maxIdle)
			for i := maxIdle; i < maxActive; i++ {
				p.slots[i] = nil
			}
		}
		p.mu.Unlock()
	}
}

// PutUntested re-reads ref under the lock but shrinks whatever it reads.
func (p *Pool) PutUntested() {
	newRef := atomic.AddInt32(&p.ref, -1)                      // untested put ref
	if newRef == 0 && atomic.LoadInt32(&p.current) > maxIdle { // untested put current
		p.mu.Lock()
		p.other = atomic.LoadInt32(&p.ref)
		atomic.StoreInt32(&p.current, maxIdle)
		p.mu.Unlock()
	}
}

// PutUnlocked re-checks ref under the lock, releases it, then shrinks.
func (p *Pool) PutUnlocked() {
	newRef := atomic.AddInt32(&p.ref, -1)                      // unlocked put ref
	if newRef == 0 && atomic.LoadInt32(&p.current) > maxIdle { // unlocked put current
		p.mu.Lock()
		again := atomic.LoadInt32(&p.ref) == 0
		p.mu.Unlock()
		if again {
			atomic.StoreInt32(&p.current, maxIdle)
		}
	}
}

// PutOther re-checks another field under the lock.
func (p *Pool) PutOther() {
	newRef := atomic.AddInt32(&p.ref, -1)                      // other put ref
	if newRef == 0 && atomic.LoadInt32(&p.current) > maxIdle { // other put current
		p.mu.Lock()
		if atomic.LoadInt32(&p.other) == 0 {
			atomic.StoreInt32(&p.current, maxIdle)
		}
		p.mu.Unlock()
	}
}
