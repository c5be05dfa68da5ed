// Package mutexreset is a Go idiom gone wrong (after Go's
// TestRaceMutexOverwrite): a Counter's Reset replaces its mutex with a
// fresh one, "to be sure it is unlocked", then clears the count under it.
// TestReset increments from one goroutine and resets a little later.
//
// Known bug: data race (WR, WW) on Counter.mu between Reset's write of the
// mutex (counter.go:20) and Inc's Lock and Unlock (counter.go:13, 15): the
// race detector sees Lock and Unlock update the mutex's word atomically,
// and the assignment write it plainly. The same interleavings are
// atomicity violations of Inc's critical section (the write falls between
// its Lock and Unlock) and of Reset (Inc's Lock falls between the write
// and Reset's own Lock), and an atomic-set violation of (mu, n). In the bad schedule Reset overwrites the
// mutex while Inc holds it: Inc's Unlock then unlocks Reset's lock, or an
// unlocked one: TestReset fails.
//
// Two Resets race the same way, which TestReset never runs concurrently:
// pecanvet's generated driver calling Reset and Reset from two goroutines
// (ssatrace/driver) shows one Reset's write of the mutex (counter.go:20)
// falling inside the other's critical section (counter.go:21 to 23), and
// the second Unlock fails with "sync: unlock of unlocked mutex".
//
// Expected: the data races and atomicity violations above are reported; the
// atomic-set-serializability violation on (mu, n) at counter.go:20 has
// neither an effect nor a dependence: an interleaving without effect, shown
// with -v.
package mutexreset
