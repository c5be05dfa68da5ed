package istio8214fixed

import (
	"sync"
	"testing"
	"time"
)

func TestConcurrentChecks(t *testing.T) {
	s := &grpcServer{cache: &Cache{cache: newLRUCache()}}
	var wg sync.WaitGroup
	for i, key := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 20 * time.Millisecond) // the second check comes later
			s.Check(key)
		}()
	}
	wg.Wait()
	if w := s.cache.cache.Stats().Writes; w != 2 {
		t.Errorf("writes = %d, want 2", w)
	}
}
