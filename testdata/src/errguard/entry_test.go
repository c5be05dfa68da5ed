package errguard

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
		e.Refresh(func() (any, error) { return "partial", errFetch })
	}()
	v := e.GetOr("default")
	wg.Wait()
	if v != "old" && v != "default" {
		t.Errorf("got %v, the failed fetch's value", v)
	}
}
