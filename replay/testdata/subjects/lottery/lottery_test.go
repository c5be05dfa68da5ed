package lottery

import (
	"sync"
	"testing"
	"time"
)

func TestDraw(t *testing.T) {
	l := New(2)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // bob buys the last ticket a bit later
		l.Buy("bob")
	}()
	l.Buy("ann")
	wg.Wait()

	if w := l.Winners(); len(w) != 1 {
		t.Errorf("winners %v, want exactly one draw", w)
	}
}
