package divergectafixed

import (
	"sync"
	"testing"
	"time"
)

func TestUse(t *testing.T) {
	tab := &Table{m: map[string]*Entry{}}
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 5 * time.Millisecond) // the callers start apart
			tab.Use("billing")
		}()
	}
	wg.Wait()
	if got := tab.Created(); got != 1 {
		t.Errorf("created %d entries, want 1", got)
	}
}
