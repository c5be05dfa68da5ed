package capcheckfixed

import (
	"sync"
	"testing"
	"time"
)

func TestTwoAcquirers(t *testing.T) {
	l := NewLimiter(2)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 5 * time.Millisecond) // one after the other
			if l.TryAcquire() {
				t.Logf("caller %d holds a slot", i)
			}
		}()
	}
	wg.Wait()
}
