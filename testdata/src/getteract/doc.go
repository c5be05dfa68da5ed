// Package getteract is a real-module subject (pecanvet issue 26; the shape
// of alitto/pond v1.9.2's purger): a Pool counts its running workers in an
// atomic, read through the getter Running; Retire checks the count through
// that getter and decrements it.
//
// Known bug: atomicity violation (check-then-act through a getter) on
// Pool.running: Retire's check (the load in Running, pool.go:20, called
// from pool.go:26) and its decrement (pool.go:29) are each atomic, but the
// pair is not. In the recorded run the second Retire finds the pool at its
// minimum and returns; if its check falls between the first Retire's check
// and decrement, both retire and the pool drops below its minimum:
// `running 0, want 1` (TestRetire fails). The remote read is the second
// Retire's check, the same load in the same calling context (Retire →
// Running) as the one that acts: av/RRW. Every access is sync/atomic: go
// test -race reports nothing.
package getteract
