package getteract

import (
	"sync"
	"testing"
	"time"
)

func TestRetire(t *testing.T) {
	p := New(2, 1)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 5 * time.Millisecond) // the retirers start apart
			p.Retire()
		}()
	}
	time.Sleep(100 * time.Millisecond) // the retirers are done by then
	got := p.Running()
	wg.Wait()
	if got != 1 {
		t.Errorf("running %d, want 1", got)
	}
}
