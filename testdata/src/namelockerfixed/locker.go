package namelockerfixed

import (
	"errors"
	"sync"
	"sync/atomic"
)

// ErrNoSuchLock is returned when the requested lock does not exist.
var ErrNoSuchLock = errors.New("no such lock")

// Locker provides a locking mechanism based on the passed in reference name.
type Locker struct {
	mu    sync.Mutex
	locks map[string]*lockCtr
	// pause, when set, runs in Lock between the count and the lock of
	// the name's entry (the test's gate).
	pause func()
}

// lockCtr is used by Locker to represent a lock with a given name.
type lockCtr struct {
	mu      sync.Mutex
	waiters int32
}

func (l *lockCtr) inc()         { atomic.AddInt32(&l.waiters, 1) }
func (l *lockCtr) dec()         { atomic.AddInt32(&l.waiters, -1) }
func (l *lockCtr) count() int32 { return atomic.LoadInt32(&l.waiters) }
func (l *lockCtr) Lock()        { l.mu.Lock() }
func (l *lockCtr) Unlock()      { l.mu.Unlock() }

// New creates a new Locker.
func New() *Locker {
	return &Locker{
		locks: make(map[string]*lockCtr),
	}
}

// Lock locks a mutex with the given name. If it doesn't exist, one is created.
func (l *Locker) Lock(name string) {
	l.mu.Lock()
	if l.locks == nil {
		l.locks = make(map[string]*lockCtr)
	}

	nameLock, exists := l.locks[name]
	if !exists {
		nameLock = &lockCtr{}
		l.locks[name] = nameLock
	}

	nameLock.inc()
	pause := l.pause
	l.mu.Unlock()
	if pause != nil {
		pause()
	}

	nameLock.Lock()
	nameLock.dec()
}

// Unlock unlocks the mutex with the given name. If the given lock is not
// being waited on by any other callers, it is deleted.
func (l *Locker) Unlock(name string) error {
	l.mu.Lock()
	nameLock, exists := l.locks[name]
	if !exists {
		l.mu.Unlock()
		return ErrNoSuchLock
	}

	if nameLock.count() == 0 {
		delete(l.locks, name)
	}
	nameLock.Unlock()

	l.mu.Unlock()
	return nil
}
