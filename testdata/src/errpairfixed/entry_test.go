package errpairfixed

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
		e.Refresh(func() (any, error) { return "new", nil })
	}()
	v, err := e.Get()
	wg.Wait()
	if err == nil && v != "old" && v != "new" {
		t.Errorf("got %v with no error", v)
	}
	if err != nil {
		t.Errorf("got error %v, no fetch failed", err)
	}
}
