package tunewake

import (
	"crypto/sha256"
	"sync"
	"testing"
)

// TestTuneUp fills the pool, starts three goroutines that each prepare a
// task (a checksum, no shared state) and Acquire, and raises the capacity
// for them at once (ants' TestPoolTuneScaleUp).
func TestTuneUp(t *testing.T) {
	p := NewPool(1)
	p.Acquire() // full
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			task := make([]byte, 256<<10)
			task[0] = byte(i)
			_ = sha256.Sum256(task)
			p.Acquire()
		}()
	}
	p.Tune(4)
	p.ResetUses()
	wg.Wait()
	if n := p.Running(); n != 4 {
		t.Errorf("running %d, want 4", n)
	}
}
