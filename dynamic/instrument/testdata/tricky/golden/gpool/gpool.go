// Package gpool uses a sync.Pool from two goroutines: Get, Put and a
// method value of Put. Recorded, the pool is a stack: what one goroutine
// puts, the next Get takes, in the trace's order.
package gpool

import "sync"

type buf struct{ n int }

var made int

var pool = sync.Pool{New: func() any { made++; return &buf{} }}

// Reuse gets a buffer, puts it back in another goroutine, and gets it
// again: the second Get returns the first buffer, and New ran once.
func Reuse() (same bool, news int) {
	made = 0
	b := pool.Get().(*buf)
	b.n = 7
	done := make(chan bool)
	put := pool.Put
	go func() {
		put(b)
		done <- true
	}()
	<-done
	c := pool.Get().(*buf)
	return c == b && c.n == 7, made
}
