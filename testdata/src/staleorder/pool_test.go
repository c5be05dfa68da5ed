package staleorder

import (
	"sync"
	"testing"
	"time"
)

func TestEvictTwice(t *testing.T) {
	p := &Pool{conns: map[string]*Conn{"db": {name: "db", pending: 3}}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		p.Evict("db")
	}()
	go func() {
		defer wg.Done()
		time.Sleep(50 * time.Millisecond) // a retry, well after the first
		p.Evict("db")
	}()
	wg.Wait()
	if n := p.Evicted(); n != 1 {
		t.Errorf("evicted %d connections, want 1", n)
	}
}
