package dcl

import (
	"sync"
	"testing"
	"time"
)

func TestConcurrentUse(t *testing.T) {
	var r Registry
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // a request handler
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		if c := r.Config(); c.Port != 8080 {
			t.Errorf("handler got port %d", c.Port)
		}
	}()
	if c := r.Config(); c.Port != 8080 || c.Host != "localhost" {
		t.Errorf("main got %+v", *c)
	}
	wg.Wait()
	if r.loads != 1 {
		t.Errorf("configuration loaded %d times", r.loads)
	}
}
