package registry

import (
	"sync"
	"testing"
	"time"
)

func TestRegister(t *testing.T) {
	var r Registry
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 5 * time.Millisecond) // the instances start apart
			r.Register("billing", i)
		}()
	}
	wg.Wait()
	if got := r.Registered(); got != 1 {
		t.Errorf("registered %d times, want 1", got)
	}
}
