package suite

import (
	"sync"
	"testing"

	"example.com/helper"
)

// TestSequential's subtests run one after the other: no race.
func TestSequential(t *testing.T) {
	b := &Box{}
	helper.Run(t,
		func(t *testing.T) { b.Add() },
		func(t *testing.T) { b.Add() },
		func(t *testing.T) {
			if b.Get() != 2 {
				t.Error("lost an Add")
			}
		})
}

// TestParallel's subtests run together: a race on Box.n.
func TestParallel(t *testing.T) {
	b := &Box{}
	helper.Run(t,
		func(t *testing.T) { b.Get(); t.Parallel(); b.Add() },
		func(t *testing.T) { b.Get(); t.Parallel(); b.Add() })
}

// TestLeftRunning's first subtest leaves a goroutine running into the
// second: a race on Box.n.
func TestLeftRunning(t *testing.T) {
	b := &Box{}
	var wg sync.WaitGroup
	helper.Run(t,
		func(t *testing.T) {
			wg.Add(1)
			go func() { defer wg.Done(); b.Add() }()
		},
		func(t *testing.T) { b.Add() })
	wg.Wait()
}
