package electstatefixed

import (
	"sync"
	"testing"
	"time"
)

func TestElect(t *testing.T) {
	n := NewNode()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		n.Run()
	}()
	go func() {
		defer wg.Done()
		time.Sleep(time.Millisecond)
		t.Logf("state %s", n.State())
	}()
	wg.Wait()
}
