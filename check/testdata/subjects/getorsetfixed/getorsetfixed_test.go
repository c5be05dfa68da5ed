package getorsetfixed

import (
	"sync"
	"testing"
	"time"
)

func TestGetAndSet(t *testing.T) {
	r := New()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		t.Logf("get: %d", r.Get("ann"))
	}()
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // after the get
		r.Set("ann", 7)
	}()
	wg.Wait()
}

func TestHas(t *testing.T) {
	r := New()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		found := make([]bool, 2)
		r.Has([]string{"bob", "bob"}, found) // one key twice: a Set of another key is no violation (map keys)
		t.Logf("found: %v", found)
	}()
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // after the lookups
		r.Set("bob", 7)
	}()
	wg.Wait()
}
