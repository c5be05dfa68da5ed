package errguardfixed

import (
	"sync"
	"testing"
	"time"
)

func TestGetOr(t *testing.T) {
	e := &Entry{}
	e.Store("old", nil)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // the GetOr is done by then
		e.Refresh(func() (any, error) { return "new", nil })
	}()
	v := e.GetOr("default")
	wg.Wait()
	if v != "old" && v != "new" {
		t.Errorf("got %v, no fetch failed", v)
	}
}
