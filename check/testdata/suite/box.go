// Package suite's tests start their subtests through a helper of another
// module (check's TestSuiteSubtests).
package suite

// Box holds a count, unguarded.
type Box struct{ n int }

// Add adds one.
func (b *Box) Add() { b.n++ }

// Get returns the count.
func (b *Box) Get() int { return b.n }
