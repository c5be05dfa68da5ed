package cache4j

import (
	"strings"
	"sync"
	"testing"
	"time"
)

func TestStats(t *testing.T) {
	c := New(2, func(k string) (string, error) { return strings.ToUpper(k), nil })
	c.Get("a") // miss, loads "A"

	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // a second client asks later
		if v, _ := c.Get("a"); v != "A" {
			t.Errorf("Get(a) = %q", v)
		}
	}()
	if v, _ := c.Get("a"); v != "A" {
		t.Errorf("Get(a) = %q", v)
	}
	wg.Wait()

	c.Get("b")
	c.Get("c") // evicts "a"
	if hits, misses := c.Stats(); hits != 2 || misses != 3 {
		t.Errorf("stats = %d hits, %d misses; want 2, 3", hits, misses)
	}
}
