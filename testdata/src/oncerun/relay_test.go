package oncerun

import (
	"sync"
	"testing"
	"time"
)

func TestClose(t *testing.T) {
	r := NewRelay()
	a, b := r.Listener(), r.Listener()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		a.Close()
		time.Sleep(5 * time.Millisecond) // b's owner closes it a little later
		b.Close()
	}()
	go func() {
		defer wg.Done()
		time.Sleep(2 * time.Millisecond)
		r.Close()
	}()
	wg.Wait()
	for _, l := range []*Listener{a, b} {
		if _, ok := <-l.Ch(); ok {
			t.Errorf("listener %d not closed", l.id)
		}
	}
}
