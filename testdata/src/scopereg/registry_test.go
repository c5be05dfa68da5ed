package scopereg

import (
	"sync"
	"testing"
	"time"
)

// TestReport: a closed scope is replaced while, a little later, the
// registry reports. One scope is always registered under "a".
func TestReport(t *testing.T) {
	r := NewRegistry()
	r.Get("a").Close()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		r.Get("a").Inc("x", 1)
	}()
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		r.Report(func(name string, n int64) {
			if name == "scopes" && n != 1 {
				t.Logf("scopes = %d, want 1", n)
			}
		})
	}()
	wg.Wait()
}
