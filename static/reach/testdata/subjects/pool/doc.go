// Package pool is a Go version of the Apache Commons Pool 1.2 object pool
// used in the Penelope evaluation (section 6): Borrow hands out an idle
// object or makes and activates a new one with the pool's factory; Close
// shuts the pool down and drops the factory; SetFactory replaces it.
//
// Known bug: atomicity violation (RWR on Pool.factory) and data race, the
// Pool 1.2 bug Penelope exposed. Borrow checks that the pool is open under
// the mutex but then reads p.factory twice without it: Make at pool.go:46
// and Activate at pool.go:50. If Close (the write at pool.go:72) runs in
// between, the second read finds a nil factory and Borrow panics with a nil
// pointer dereference (TestBorrowThenClose; Java: NullPointerException). If
// SetFactory (the write at pool.go:80) runs in between, the object is made
// by one factory and activated by another, which rejects it
// (TestBorrowThenSetFactory).
//
// go test -race flags it in a single run (the reads are not locked).
package pool
