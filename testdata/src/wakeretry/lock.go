package wakeretry

import (
	"sync"
	"sync/atomic"
)

// RW is a readers-writer lock whose waiters sleep on a broadcast channel.
// state is 0 when free, -1 when a writer holds it, else the number of
// readers.
type RW struct {
	state int32
	ch    chan struct{}
	lock  sync.Mutex
}

func New() *RW { return &RW{ch: make(chan struct{}, 1)} }

func (m *RW) Lock() {
	for {
		ch := m.channel()
		if atomic.CompareAndSwapInt32(&m.state, 0, -1) {
			return
		}
		<-ch
		// A release woke us: take the lock it freed.
		atomic.StoreInt32(&m.state, -1)
		return
	}
}

func (m *RW) RLock() {
	for {
		ch := m.channel()
		n := atomic.LoadInt32(&m.state)
		if n >= 0 {
			if atomic.CompareAndSwapInt32(&m.state, n, n+1) {
				return
			}
			continue
		}
		<-ch
	}
}

func (m *RW) Unlock() {
	if !atomic.CompareAndSwapInt32(&m.state, -1, 0) {
		panic("wakeretry: Unlock of an unlocked RW")
	}
	m.broadcast()
}

func (m *RW) RUnlock() {
	n := atomic.AddInt32(&m.state, -1) // want "atomic-set-serializability violation on RW\\.state, RW\\.ch: .*(check-then-act: the value read at lock\\.go:54 decides the call of RW\\.broadcast|panic: wakeretry: RUnlock of an unlocked RW)"
	if n < 0 {
		panic("wakeretry: RUnlock of an unlocked RW")
	}
	if n == 0 {
		m.broadcast()
	}
}

func (m *RW) channel() chan struct{} {
	m.lock.Lock()
	ch := m.ch
	m.lock.Unlock()
	return ch
}

func (m *RW) broadcast() {
	newCh := make(chan struct{}, 1)
	m.lock.Lock()
	ch := m.ch
	m.ch = newCh
	m.lock.Unlock()
	close(ch)
}
