// Package mixedflagfixed is mixedflag with the flag loaded atomically:
// no race, and no candidate.
package mixedflagfixed

import (
	"sync"
	"sync/atomic"
)

type Conn struct{ closed uint32 }

func (c *Conn) Close() { atomic.StoreUint32(&c.closed, 1) }

func (c *Conn) Closed() bool { return atomic.LoadUint32(&c.closed) != 0 }

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
