package lazyinitfixed

import (
	"sync"
	"testing"
	"time"
)

func TestLazyDial(t *testing.T) {
	var mu sync.Mutex
	dials := 0
	c := New("db:5432", func(addr string) (*Conn, error) {
		mu.Lock()
		defer mu.Unlock()
		dials++
		return &Conn{Addr: addr, ID: dials}, nil
	})

	var wg sync.WaitGroup
	var id2 int
	wg.Add(1)
	go func() { // a second request, a little later
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		id2, _ = c.Do("SELECT 2")
	}()
	id1, err := c.Do("SELECT 1")
	wg.Wait()

	if err != nil || id1 != id2 {
		t.Errorf("requests used connections %d and %d (err %v)", id1, id2, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if dials != 1 {
		t.Errorf("dialed %d times", dials)
	}
}
