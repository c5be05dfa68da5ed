package oncelockfixed

import (
	"sync"
	"testing"
	"time"
)

func TestRegistry(t *testing.T) {
	r := NewRegistry()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		if d := r.Default("a"); d != 0 {
			t.Errorf("Default(a) = %d, want 0", d)
		}
	}()
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // registers a little later
		r.Register("a", 1)
	}()
	wg.Wait()
	if v := r.Value("a"); v != 1 {
		t.Errorf("Value(a) = %d, want 1", v)
	}
}
