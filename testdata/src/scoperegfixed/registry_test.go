package scoperegfixed

import (
	"sync"
	"testing"
	"time"
)

// TestReport: a closed scope is replaced while, a little later, the
// registry reports. The new scope's count is reported once it is made.
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
			if name == "x" && n != 1 {
				t.Logf("x = %d, want 1", n)
			}
		})
	}()
	wg.Wait()
}
