// Package events exercises the symbolic event model: locations, positions
// and must-held locksets. Each line's want lists its events (test-only
// reporter: "OP LOC [held=LOCKS] [deferred]" at the event's position).
package events

import (
	"sync"
	"sync/atomic"
)

type C struct {
	mu  sync.Mutex
	rw  sync.RWMutex
	n   int
	m   map[string]int
	s   []int
	a   atomic.Int64
	arr [4]int
	p   *int
	sync.Mutex
}

var g int

var cnt int64

func (c *C) Inc() {
	c.mu.Lock()         // want `^lock events.C.mu$`
	defer c.mu.Unlock() // want `^unlock events.C.mu held=events.C.mu deferred$`
	c.n++               // want `^read events.C.n held=events.C.mu$` `^write events.C.n held=events.C.mu$`
}

func (c *C) lock()   { c.mu.Lock() }   // want `^lock events.C.mu$`
func (c *C) unlock() { c.mu.Unlock() } // want `^unlock events.C.mu$`

// Helper locks through helper methods: the lock effect of a call.
func (c *C) Helper() {
	c.lock()
	c.n = 1 // want `^write events.C.n held=events.C.mu$`
	c.unlock()
	c.n = 2 // want `^write events.C.n$`
}

func (c *C) Mixed() int {
	c.rw.RLock()        // want `^rlock events.C.rw$`
	x := c.m["a"]       // want `^read events.C.m held=events.C.rw\(r\)$` `^read map\[string\]int held=events.C.rw\(r\)$`
	c.rw.RUnlock()      // want `^runlock events.C.rw held=events.C.rw\(r\)$`
	c.Lock()            // want `^lock events.C.Mutex$`
	c.s[0] = x          // want `^read events.C.s held=events.C.Mutex$` `^write \[\]int elem held=events.C.Mutex$`
	c.arr[1] = 2        // want `^write events.C.arr held=events.C.Mutex$`
	*c.p = 3            // want `^read events.C.p held=events.C.Mutex$` `^write \*events.C.p held=events.C.Mutex$`
	c.Unlock()          // want `^unlock events.C.Mutex held=events.C.Mutex$`
	if c.mu.TryLock() { // want `^lock events.C.mu$`
		g = 3         // want `^write events.g held=events.C.mu$`
		c.mu.Unlock() // want `^unlock events.C.mu held=events.C.mu$`
	}
	c.a.Add(1)               // want `^atomic-rmw events.C.a$`
	atomic.AddInt64(&cnt, 1) // want `^atomic-rmw events.cnt$`
	buf := make([]int, 3)    // thread-local: no events
	buf[0] = 1
	p := &C{n: 1} // initialization of a fresh object: no events
	_ = p
	return buf[0] + int(c.a.Load()) // want `^atomic-load events.C.a$`
}

// Branches: a lock held on only one path is not must-held after the join.
func (c *C) Branch(b bool) {
	if b {
		c.mu.Lock() // want `^lock events.C.mu$`
	}
	c.n = 1 // want `^write events.C.n$`
	if b {
		c.mu.Unlock() // want `^unlock events.C.mu$`
	}
}

func Run() int {
	x := 0 // local: x is not captured yet
	var wg sync.WaitGroup
	wg.Add(1)   // want `^wg-add events.Run.wg$`
	go func() { // want `^go events.Run\$1$`
		defer wg.Done() // want `^wg-done events.Run.wg deferred$`
		x = 1           // want `^write events.Run.x$`
	}()
	wg.Wait()               // want `^wg-wait events.Run.wg$`
	ch := make(chan int, 1) // local: ch is not captured yet
	go func() { ch <- x }() // want `^go events.Run\$2$` `^read events.Run.ch$` `^read events.Run.x$` `^send chan int$`
	v := <-ch               // want `^read events.Run.ch$` `^recv chan int$`
	select {
	case ch <- 1: // want `^send chan int$` `^read events.Run.ch$`
	case <-ch: // want `^recv chan int$` `^read events.Run.ch$`
	}
	close(ch) // want `^close chan int$` `^read events.Run.ch$`
	var once sync.Once
	once.Do(func() { g++ }) // want `^once events.Run.once$` `^read events.g$` `^write events.g$`
	return x + v            // want `^read events.Run.x$`
}

// Publish writes a fresh object before and after it escapes.
func Publish() *C {
	p := &C{}
	p.n = 1    // local: p has not escaped
	go p.Inc() // want `^go \(\*events.C\).Inc$`
	p.n = 2    // want `^write events.C.n$`
	return p
}

// Fill allocates a fresh object in every iteration.
func Fill(dst []*C) {
	for i := range dst {
		c := &C{}
		c.n = i    // local: a fresh C every iteration
		dst[i] = c // want `^write \[\]\*events.C elem$`
	}
}
