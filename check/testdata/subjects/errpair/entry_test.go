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
	_, _ = e.Get() // checks nothing: only the dependence criterion can tell
	wg.Wait()
}
