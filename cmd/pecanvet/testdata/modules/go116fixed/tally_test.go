package tally

import (
	"sync"
	"testing"

	"example.com/dep"
)

// twice adds to t from two goroutines at once.
func twice(t *Tally) {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Add()
		}()
	}
	wg.Wait()
}

func TestTwice(t *testing.T) {
	var tl Tally
	twice(&tl)
	if tl.N() != 2 {
		t.Fatalf("%s, want 2 events", dep.Label(tl.N()))
	}
}

// TestGo116 checks that the instrumented build keeps the module's go 1.16
// semantics: one loop variable for all iterations, and panic(nil) recovers
// nil (GODEBUG panicnil=1 below go 1.21).
func TestGo116(t *testing.T) {
	for _, f := range Funcs() {
		if f() != 3 {
			t.Fatalf("loop variable per iteration: go 1.22 semantics in a go 1.16 module")
		}
	}
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("panic(nil) recovered %v: go 1.21 GODEBUG in a go 1.16 module", r)
		}
	}()
	panic(nil)
}
