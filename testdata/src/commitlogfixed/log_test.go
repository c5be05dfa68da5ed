package commitlogfixed

import (
	"sync"
	"testing"
	"time"
)

func TestPropose(t *testing.T) {
	l := &Log{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for v := 1; v <= 3; v++ {
			l.Propose(v)
		}
	}()
	go func() {
		defer wg.Done()
		time.Sleep(time.Millisecond)
		v, ok := l.LastCommitted()
		t.Logf("last committed %d (%v)", v, ok)
	}()
	wg.Wait()
}
