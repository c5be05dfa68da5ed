package cockroach9935

import (
	"sync"
	"testing"
)

func TestConcurrentLogging(t *testing.T) {
	l := &loggingT{}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.outputLogEntry("hello")
		}()
	}
	wg.Wait()
	if len(l.file) != 2 || l.exited != nil {
		t.Errorf("entries=%d exited=%v, want 2 and nil", len(l.file), l.exited)
	}
}
