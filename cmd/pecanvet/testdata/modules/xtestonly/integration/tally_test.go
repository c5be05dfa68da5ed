// Package integration_test is a directory of external tests only; the counter it tests, without a lock (its bug), is in the test file.
package integration_test

import (
	"sync"
	"testing"
)

// Tally counts events.
type Tally struct{ n int }

// Add counts one event. Its read and write of t.n are not atomic: two
// goroutines adding at once can lose an update (and race).
func (t *Tally) Add() { t.n++ }

// N is the count.
func (t *Tally) N() int { return t.n }

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
		t.Fatalf("N = %d, want 2", tl.N())
	}
}
