// Package capcheck is a Go idiom subject, beyond -race: a limiter whose
// TryAcquire checks the slots in use in one critical section (InUse) and
// takes a slot in another (take), as a pool's capacity check decides
// whether to start a worker.
//
// Known bug: atomicity violation (check-then-act, RWW) on Limiter.n: the
// read at capcheck.go:20 (InUse) decides the write at capcheck.go:27
// (take). Another TryAcquire can take the last slot in between, and both
// callers hold a slot: more than max. The test asserts nothing about the
// outcome, so no replay fails: pecanvet reports it because the value read
// decides the later write (the dependence criterion). Every access holds
// the mutex, so go test -race reports nothing.
package capcheck
