package eventloop

import (
	"sync"
	"testing"
	"time"
)

func TestLoop(t *testing.T) {
	l := New()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		l.Run()
	}()
	l.Send(1)
	l.Send(2)
	var seen int
	go func() { // a reader, after both values were applied
		defer wg.Done()
		time.Sleep(20 * time.Millisecond)
		seen = l.Current()
	}()
	time.Sleep(40 * time.Millisecond)
	l.Stop()
	wg.Wait()
	if seen != 1 && seen != 2 {
		t.Errorf("reader saw %d, want a value sent (1 or 2)", seen)
	}
}
