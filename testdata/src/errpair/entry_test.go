package errpair

import (
	"sync"
	"testing"
	"time"
)

func TestRefresh(t *testing.T) {
	e := &Entry{}
	e.Store("old", nil)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // the Get is done by then
		e.Refresh(func() (any, error) { return "partial", errFetch })
	}()
	v, err := e.Get()
	wg.Wait()
	if err == nil && v != "old" {
		t.Errorf("got %v with no error: the failed fetch's value", v)
	}
}
