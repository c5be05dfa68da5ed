package atomiclimit

import (
	"sync"
	"testing"
	"time"
)

func TestAcquire(t *testing.T) {
	l := New(2)
	var mu sync.Mutex
	admitted := 0
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 5 * time.Millisecond) // one after the other
			if l.Acquire() {
				mu.Lock()
				admitted++
				mu.Unlock()
			}
		}(i)
	}
	wg.Wait()
	if admitted != 2 {
		t.Errorf("%d admitted, want 2", admitted)
	}
}

func TestRunning(t *testing.T) {
	l := New(1)
	done := make(chan bool)
	go func() {
		l.Work(func() { time.Sleep(10 * time.Millisecond) })
		done <- true
	}()
	time.Sleep(3 * time.Millisecond) // while the work runs
	if n := l.Running(); n < 0 || n > 1 {
		t.Errorf("running %d, want 0 or 1", n)
	}
	<-done
}
