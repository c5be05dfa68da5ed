// Package mixedflag is a flag stored atomically by one goroutine and read
// plainly by another: a data race by Go's memory model (the race detector
// reports it), so a race candidate pairs the plain read with the atomic
// store. Two atomic accesses are no race.
package mixedflag

import (
	"sync"
	"sync/atomic"
)

type Conn struct{ closed uint32 }

func (c *Conn) Close() { atomic.StoreUint32(&c.closed, 1) }

func (c *Conn) Closed() bool { return c.closed != 0 } // want `^candidate race RW: flag.go:16:41 flag.go:14:44$`

func Run() bool {
	c := &Conn{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.Close()
	}()
	closed := c.Closed()
	wg.Wait()
	return closed
}
