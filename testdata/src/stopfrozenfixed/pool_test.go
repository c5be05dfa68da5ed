package stopfrozenfixed

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestReleaseWhileSubmitting is ants's TestReleaseWhenRunningPool, small:
// a goroutine submits while the test releases the pool.
func TestReleaseWhileSubmitting(t *testing.T) {
	p := New()
	var ran atomic.Int32
	var wg sync.WaitGroup
	started := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 4; i++ {
			_ = p.Submit(func() {
				time.Sleep(20 * time.Millisecond)
				ran.Add(1)
			})
			if i == 0 {
				close(started)
			}
		}
	}()
	<-started
	time.Sleep(10 * time.Millisecond)
	p.Release()
	wg.Wait()
}
