package spinpool

import (
	"runtime"
	"sync"
	"sync/atomic"
)

type spinLock uint32

func (l *spinLock) Lock() {
	for !atomic.CompareAndSwapUint32((*uint32)(l), 0, 1) {
		runtime.Gosched()
	}
}

func (l *spinLock) Unlock() { atomic.StoreUint32((*uint32)(l), 0) }

// Stack hands out items; Take waits for one.
type Stack struct {
	lock  sync.Locker
	cond  *sync.Cond
	items []int
}

// New returns an empty stack.
func New() *Stack {
	s := &Stack{lock: new(spinLock)}
	s.cond = sync.NewCond(s.lock)
	return s
}

// Put adds v and wakes a waiting Take.
func (s *Stack) Put(v int) {
	s.lock.Lock()
	s.items = append(s.items, v) // want "data race on "
	s.cond.Signal()
	s.lock.Unlock()
}

// Take waits for an item and removes it.
func (s *Stack) Take() int {
	s.lock.Lock()
	for len(s.items) == 0 {
		s.cond.Wait()
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	s.lock.Unlock()
	return v
}

// Len returns how many items wait, without the lock.
func (s *Stack) Len() int {
	return len(s.items)
}

// Counter counts under a spin lock called directly, not through a
// sync.Locker.
type Counter struct {
	mu spinLock
	n  int
}

// Inc adds one.
func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// Get returns the count.
func (c *Counter) Get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}
