package reserve

import (
	"errors"
	"sync"
	"testing"
	"time"
)

func TestGet(t *testing.T) {
	failed := errors.New("dial failed")
	p := &Pool{max: 1, dial: func(id int) error {
		if id == 1 {
			return failed
		}
		return nil
	}}
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for id := 1; id <= 2; id++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(id-1) * 5 * time.Millisecond)
			errs[id] = p.Get(id)
		}()
	}
	wg.Wait()
	if p.peak > p.max {
		t.Errorf("peak %d active, want at most %d", p.peak, p.max)
	}
	if errs[1] != failed {
		t.Errorf("Get(1) = %v, want the dial's error", errs[1])
	}
	if errs[2] != nil && errs[2] != ErrExhausted {
		t.Errorf("Get(2) = %v", errs[2])
	}
}
